/** Reading files in the browser: base64 for JSON bodies. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
}

const KIND_BY_EXTENSION: Record<string, string> = {
  pdf: "pdf", docx: "docx", pptx: "pptx", xlsx: "xlsx", xlsm: "xlsx", xltx: "xlsx", xltm: "xlsx",
  docm: "docx", dotx: "docx", dotm: "docx", pptm: "pptx", ppsx: "pptx", ppsm: "pptx", potx: "pptx", potm: "pptx",
  csv: "csv", tsv: "csv", md: "md", markdown: "md", txt: "txt", text: "txt", html: "html", htm: "html",
  png: "image", jpg: "image", jpeg: "image", jpe: "image", jfif: "image", tif: "image", tiff: "image", gif: "image",
  bmp: "image",
};

/**
 * The document kind a file name's extension stands for. Only for records that lack the kind the server
 * read the file as (older chat transcripts): the server decides by content, and its kind wins.
 */
export function kindFromName(name: string): string | null {
  return KIND_BY_EXTENSION[extensionOf(name)] ?? null;
}
