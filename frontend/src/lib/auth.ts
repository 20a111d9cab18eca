/** The API token, kept in the `quire_token` cookie the server reads (SameSite=Strict, path=/). */
export const TOKEN_COOKIE = "quire_token";

export function saveToken(token: string, doc: Document = document): void {
  const secure = doc.location?.protocol === "https:" ? "; Secure" : "";
  doc.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token.trim())}; SameSite=Strict; path=/; max-age=31536000${secure}`;
}

export function hasToken(doc: Document = document): boolean {
  return doc.cookie.split(";").some((part) => part.trim().startsWith(`${TOKEN_COOKIE}=`));
}
