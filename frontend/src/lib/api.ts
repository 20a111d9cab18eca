/**
 * The one HTTP client: same-origin fetch, JSON in and out, and every failure as an `ApiError` carrying
 * the server's `{"error": {code, message, details}}` shape (or `network` when the server can't be
 * reached). A 401 also notifies `onUnauthorized` listeners so the app can ask for the API token.
 * No UI here: callers decide how to show errors.
 */
import { reportReached, reportUnreachable } from "./connection";
import { readNdjson, type NdjsonEvent } from "./ndjson";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Subscribe to "the server wants a token"; returns the unsubscribe function. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function isErrorBody(body: unknown): body is { error: { code: string; message: string; details?: unknown } } {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

/** Turns a non-2xx response into an ApiError, reading the standard error body when there is one. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const error = isErrorBody(body)
    ? new ApiError(response.status, body.error.code, body.error.message, body.error.details)
    : new ApiError(response.status, "http_error", `The server answered ${response.status} ${response.statusText}.`);
  if (error.status === 401) unauthorizedListeners.forEach((listener) => listener());
  return error;
}

// 503 is not here: Quire answers 503 itself when the model server is missing (the server is up).
const GATEWAY_ERRORS = new Set([502, 504]);

export const NETWORK_ERROR_MESSAGE = "Quire's server can't be reached. Is it still running?";

/** fetch() for our API: same-origin credentials; throws ApiError for HTTP and network failures. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    reportUnreachable();
    throw new ApiError(0, "network", NETWORK_ERROR_MESSAGE, error);
  }
  // A proxy's "bad gateway" or "gateway timeout" means Quire itself did not answer.
  if (GATEWAY_ERRORS.has(response.status)) reportUnreachable();
  else reportReached();
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/** GET (or any method) returning parsed JSON; 204 gives undefined. */
export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await apiFetch(path, { ...init, headers: { Accept: "application/json", ...init.headers } });
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A state-changing request with a JSON body. */
export function apiSend<T>(method: "POST" | "PATCH" | "PUT" | "DELETE", path: string, body?: unknown,
  init: RequestInit = {}): Promise<T> {
  const headers: HeadersInit = body === undefined ? {} : { "Content-Type": "application/json" };
  return apiJson<T>(path, {
    ...init,
    method,
    headers: { ...headers, ...init.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Opens an NDJSON endpoint and yields its events; HTTP errors throw before the first event. */
export async function apiStream(path: string, init: RequestInit = {}): Promise<AsyncGenerator<NdjsonEvent>> {
  const response = await apiFetch(path, { ...init, headers: { Accept: "application/x-ndjson", ...init.headers } });
  if (!response.body) throw new ApiError(response.status, "empty_stream", "The server sent no stream.");
  return readNdjson(response.body, init.signal ?? undefined);
}

/** A readable message for anything thrown by the API layer. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return error.message;
  return "Something went wrong.";
}

export function buildQuery(params: Record<string, string | number | boolean | string[] | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) value.forEach((item) => search.append(key, item));
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
