/** Test helpers: byte streams built from chunks, optionally failing partway. */
export function chunkedStream(chunks: Array<string | Uint8Array>, failWith?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) {
        const chunk = chunks[index++] as string | Uint8Array;
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      } else if (failWith) {
        controller.error(failWith);
      } else {
        controller.close();
      }
    },
  });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
