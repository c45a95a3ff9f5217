/**
 * Secrets that appear inside log text rather than under a secret-looking key: webhook keys in paths
 * (`/hooks/{key}`, `/api/v4/hooks/incoming/{key}`, `/hooks/commands/{token}`), tokens and secrets in query
 * strings, `Bearer`/`Token`/`Basic` credentials, `whsec_` signing secrets and Standard Webhooks
 * signatures. A hook path keeps the first six characters of its key, enough to tell hooks apart.
 */
// Everything after the six characters is cut, further segments included: `/hooks/commands/./{key}` or
// `/hooks/x/../{key}` (sent by an attacker, or redirected to the clean path) must not keep the key.
const HOOK_PATH = /(\/hooks\/(?:incoming\/|commands\/)?)(?!(?:incoming|outgoing|commands)(?:[/?#\s"'<>]|$))([^/?#\s"'<>]{0,6})[^?#\s"'<>]*/gi;
const QUERY_SECRET = /([?&;](?:access_token|token|auth|password|passwd|secret|client_secret|api_?key|key|signature|sig|code|session)=)[^&#\s"'<>]*/gi;
const SCHEME_CREDENTIAL = /\b(Bearer|Token|Basic)(\s+)[A-Za-z0-9\-._~+/=]{8,}/gi;
const SIGNING_SECRET = /\bwhsec_[A-Za-z0-9+/=_-]+/g;
const SIGNATURE = /\bv1,[A-Za-z0-9+/]{20,}={0,2}/g;
/** Cheap pre-check: most lines contain none of these, and then nothing else runs. */
const MAYBE_SECRET = /hooks\/|[?&;][a-z_]+=|bearer|token|basic|whsec_|v1,/i;

export const MASKED = '[redacted]';

/** `text` with every secret it recognises masked (unchanged when there is none). */
export function maskSecrets(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  return text
    .replace(HOOK_PATH, (_all, prefix: string, head: string) => `${prefix}${head}…`)
    .replace(QUERY_SECRET, `$1${MASKED}`)
    .replace(SCHEME_CREDENTIAL, `$1$2${MASKED}`)
    .replace(SIGNING_SECRET, `whsec_${MASKED}`)
    .replace(SIGNATURE, `v1,${MASKED}`);
}
