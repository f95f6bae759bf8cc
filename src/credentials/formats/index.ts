/**
 * The credential formats a wallet may pick up, and the registry that finds one by its format or a
 * configuration identifier. A format joins by one line in `walletFormats`; the issuer metadata,
 * offers and the credential endpoint take every format listed.
 */
import type { RecordDescription } from '../../records/define.ts';
import type { IssuerKeys } from '../keys.ts';
import type { DocumentSigner } from '../mdoc-certificates.ts';
import type { CredentialFormat, FormatId } from './format.ts';
import { jwtVcJsonFormat } from './jwt-vc-json.ts';
import { msoMdocFormat } from './mso-mdoc.ts';
import { sdJwtFormat } from './sd-jwt.ts';

/** What the formats are made with: the issuer's keys, the mdoc's document signer, a credential's validity. */
export interface FormatContext {
  readonly keys: IssuerKeys;
  /** The document signer and its IACAs, made or checked at their first use (mdoc-certificates.ts). */
  readonly signer: () => Promise<DocumentSigner>;
  readonly validityS: number;
}

/** Every format this service issues to wallets. */
export const walletFormats = (context: FormatContext): CredentialFormat[] => [
  sdJwtFormat(context),
  msoMdocFormat(context),
  jwtVcJsonFormat(context),
];

/** One credential configuration: a record type in a format. */
export interface Configuration {
  readonly id: string;
  readonly format: CredentialFormat;
  readonly description: RecordDescription;
}

export interface FormatRegistry {
  readonly formats: readonly CredentialFormat[];
  /** Every configuration, by type then format, as the issuer metadata lists them. */
  readonly configurations: readonly Configuration[];
  byFormat(format: string): CredentialFormat | undefined;
  configuration(id: string): Configuration | undefined;
  /** The configuration of a type in a format. */
  configurationOf(type: string, format: FormatId): Configuration | undefined;
}

/**
 * The registry of the formats over the record types; two formats of one identifier, or two configurations of
 * one, are refused.
 */
export function formatRegistry(
  formats: readonly CredentialFormat[],
  descriptions: readonly RecordDescription[],
): FormatRegistry {
  const byFormat = new Map<string, CredentialFormat>();
  for (const format of formats) {
    if (byFormat.has(format.format)) throw new Error(`two credential formats are ${format.format}`);
    byFormat.set(format.format, format);
  }
  const configurations = descriptions.flatMap((description) =>
    formats.map((format) => ({ id: format.configurationId(description.name), format, description })),
  );
  const byId = new Map<string, Configuration>();
  for (const configuration of configurations) {
    if (byId.has(configuration.id)) throw new Error(`two credential configurations are ${configuration.id}`);
    byId.set(configuration.id, configuration);
  }
  return {
    formats,
    configurations,
    byFormat: (format) => byFormat.get(format),
    configuration: (id) => byId.get(id),
    configurationOf: (type, format) => byId.get(byFormat.get(format)?.configurationId(type) ?? ''),
  };
}
