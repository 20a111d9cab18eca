import { describe, expect, it } from "vitest";
import { extensionFor, recordingMimeType } from "./voice";

describe("voice recording formats", () => {
  it("prefers WebM/Opus and falls back to what the browser records", () => {
    expect(recordingMimeType(() => true)).toBe("audio/webm;codecs=opus");
    expect(recordingMimeType((type) => type === "audio/mp4")).toBe("audio/mp4");  // Safari
    expect(recordingMimeType(() => false)).toBeUndefined();
  });

  it("names the upload after its container", () => {
    expect(extensionFor("audio/webm;codecs=opus")).toBe("webm");
    expect(extensionFor("audio/ogg;codecs=opus")).toBe("ogg");
    expect(extensionFor("audio/mp4")).toBe("m4a");
  });
});
