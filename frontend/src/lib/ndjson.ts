/**
 * Reads an NDJSON byte stream (one JSON value per line) as it arrives. Lines may be split across
 * chunks or several may share one; a final line without a newline still counts. A line that isn't
 * JSON becomes an `invalid` event rather than ending the stream; a broken connection throws
 * `StreamNetworkError` (an abort rethrows the AbortError). Pure: no UI, no globals.
 */

export type NdjsonEvent =
  | { type: "value"; value: unknown }
  | { type: "invalid"; line: string; error: string };

export class StreamNetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : "The connection was interrupted.", { cause });
    this.name = "StreamNetworkError";
  }
}

function parseLine(line: string): NdjsonEvent {
  try {
    return { type: "value", value: JSON.parse(line) as unknown };
  } catch (error) {
    return { type: "invalid", line, error: error instanceof Error ? error.message : String(error) };
  }
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === "AbortError");
}

export async function* readNdjson(
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<NdjsonEvent, void, undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        throw new StreamNetworkError(error);
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield parseLine(line);
        newline = buffer.indexOf("\n");
      }
    }
    finished = true;
    const rest = (buffer + decoder.decode()).trim();
    if (rest) yield parseLine(rest);
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
