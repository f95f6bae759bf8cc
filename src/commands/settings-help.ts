/**
 * The settings a command reads, for its `--help`: from the schema that checks them, so a setting added there
 * is listed here.
 */
export const settingsHelp = (reference: readonly { name: string; default?: unknown; description: string }[]) =>
  reference
    .map(
      ({ name, default: fallback, description }) =>
        `  ${name}${fallback === undefined ? '' : ` (default ${fallback})`}\n      ${description}`,
    )
    .join('\n');
