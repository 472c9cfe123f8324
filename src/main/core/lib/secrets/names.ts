/**
 * Field and label names whose value is a credential: `password`, `pwd`, `token`, `api_key`,
 * `aws_secret_access_key`, `clientSecret`, "API-Key", "access token"… A name is compared in one
 * spelling (camelCase split, spaces and dashes as _, lower case), and only its end counts: `token`
 * and `session_token` are credentials, `token_count`, `max_tokens` and `tokenizer` are not.
 */

/** The last words of a credential's name (after normalising). */
const SECRET_END =
  /(?:^|_)(?:api_?key|apikey|secret|secret_(?:access_)?key|password|passwd|pwd|passphrase|token|private_?key)$/;

/** Tokens that are not credentials: pagination cursors (Gmail's nextPageToken…) and a tokenizer's special tokens. */
const NOT_SECRET =
  /(?:^|_)(?:page|next|prev|previous|continuation|cursor|sync|eos|bos|pad|unk|sep|cls|mask|stop|special)_?token$/;

/** `clientSecret` → client_secret, `API-Key` → api_key, `access token` → access_token. */
export const normaliseName = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s.-]+/g, '_')
    .toLowerCase();

/** Answers per name, for redactValue, which asks for every key of every object (the same few dozen keys). */
const memo = new Map<string, boolean>();

/** Whether a field or label of this name holds a credential. */
export function isSecretName(name: string): boolean {
  let yes = memo.get(name);
  if (yes === undefined) {
    const n = normaliseName(name);
    yes = SECRET_END.test(n) && !NOT_SECRET.test(n);
    if (memo.size > 10_000) memo.clear();
    memo.set(name, yes);
  }
  return yes;
}

/** A random-looking credential: letters and digits, with an alphanumeric run of 10 or more. */
export const looksRandom = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s) && /[A-Za-z0-9]{10,}/.test(s);

/**
 * Whether a value under a credential's name is worth redacting: not when it is a path under `pwd`
 * (the shell's working directory: {"pwd": "/home/user/project"}), which no password looks like.
 */
export const secretValueOf = (name: string, value: string): boolean =>
  !(/(?:^|_)pwd$/.test(normaliseName(name)) && /^(?:~?\/|[A-Za-z]:[\\/])/.test(value));
