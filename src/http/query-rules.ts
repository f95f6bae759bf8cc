/**
 * Rules across a query's parameters, which no parameter's own schema can state (v0's forenames
 * whole or word by word, the feed's 'after' or 'since', a printed certificate without a holder).
 * A route's querystring schema lists them under QUERY_RULES, each a JSON Schema of the whole
 * query and the message a query that breaks it is refused with. Ajv enforces them (the keyword
 * app.ts adds, checked after every parameter's own schema: a query is judged parameter by
 * parameter first), the error handler answers with the rule's message, and the operation's
 * description in the OpenAPI document quotes the messages, since OpenAPI 3.1 has no place for a
 * rule across parameters. So each rule and its wording are written once.
 */
import type { FuncKeywordDefinition } from 'ajv';

type DataValidate = ReturnType<NonNullable<FuncKeywordDefinition['compile']>>;

export const QUERY_RULES = 'x-query-rules';

export interface QueryRule {
  /** A JSON Schema the whole query must be valid by. */
  readonly schema: Record<string, unknown>;
  /** What a query that breaks it is refused (400) with: the rule in words, naming the parameters. */
  readonly message: string;
  /** Parameters that break it, every other parameter of a request aside: the document shows them. */
  readonly example: Readonly<Record<string, string>>;
}

/** The Ajv keyword: each rule checked in turn, the first one broken refusing the query with its message. */
export const queryRulesKeyword: FuncKeywordDefinition = {
  keyword: QUERY_RULES,
  // An object keyword added after Ajv's own: it runs after `required`, `properties` and
  // `additionalProperties`, so a malformed parameter is named before a rule across them.
  type: 'object',
  schemaType: 'array',
  errors: true,
  compile(rules: readonly QueryRule[], _parent, it) {
    const checks = rules.map((rule) => {
      const valid = it.self.compile(rule.schema);
      // Compiled once, at start-up: an example that does not break its rule would mislead the document's readers.
      if (valid(rule.example)) throw new Error(`The example of the query rule "${rule.message}" does not break it`);
      return { valid, message: rule.message };
    });
    const validate: DataValidate = (query) => {
      for (const { valid, message } of checks) {
        if (valid(query)) continue;
        validate.errors = [{ keyword: QUERY_RULES, message, params: {} }];
        return false;
      }
      return true;
    };
    return validate;
  },
};

/** The rules of a querystring schema, if it has any. */
export const queryRulesOf = (schema: unknown): readonly QueryRule[] =>
  ((schema as Record<string, unknown> | undefined)?.[QUERY_RULES] as QueryRule[] | undefined) ?? [];

/** The operation description's sentence for its query's rules: what each refusal says, and a query that gets it. */
export function queryRulesSentence(rules: readonly QueryRule[]): string {
  if (rules.length === 0) return '';
  const refusals = rules.map((rule) => `“${rule.message}” (e.g. ${new URLSearchParams(rule.example)})`).join('; ');
  return ` A query that breaks a rule across its parameters is refused (400) with the rule's message: ${refusals}.`;
}
