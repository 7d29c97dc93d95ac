const SECRET_FIELD = /pass(word)?|secret|token/i;

/**
 * A JSON.stringify replacer that masks secret fields, also inside values sent as JSON text
 * (system_config arrives so, with ftppassword).
 */
export function maskSecrets(key: string, value: unknown): unknown {
  if (SECRET_FIELD.test(key)) return '***';
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try {
      return JSON.stringify(JSON.parse(value), maskSecrets);
    } catch {
      return value;
    }
  }
  return value;
}

/** A stored JSON text with its secret fields masked; other text is returned as it is. */
export function maskSecretsInText(text: string): string {
  const masked = maskSecrets('', text);
  return typeof masked === 'string' ? masked : text;
}
