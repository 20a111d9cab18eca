/**
 * Voice questions: which recording format this browser's MediaRecorder can produce, and sending a
 * recording to `POST /api/transcribe` (speech to text on the Quire server; nothing is stored).
 */
import type { components } from "@/api/schema";
import { apiJson } from "@/lib/api";

export type Transcript = components["schemas"]["TranscriptOut"];

/** The server refuses longer recordings (QUIRE_VOICE_MAX_SECONDS, 120 s by default); stop a little before. */
export const MAX_RECORDING_MS = 115_000;

// In order of preference: Chromium and Firefox record WebM/Opus, Firefox also Ogg, Safari MP4/AAC.
const MIME_TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"];

export function recordingMimeType(isSupported: (type: string) => boolean): string | undefined {
  return MIME_TYPES.find((type) => isSupported(type));
}

export function extensionFor(mimeType: string): string {
  if (mimeType.startsWith("audio/ogg")) return "ogg";
  if (mimeType.startsWith("audio/mp4")) return "m4a";
  return "webm";
}

/** A short hint shown on the disabled mic when the server has no speech model. */
export function voiceUnavailableHint(hint: string | null | undefined): string {
  return `Voice input is not installed on this Quire server. ${hint ?? "Install requirements-voice.txt and restart Quire."}`;
}

export function transcribe(recording: Blob, signal?: AbortSignal): Promise<Transcript> {
  const form = new FormData();
  const type = recording.type || "audio/webm";
  form.append("audio", recording, `question.${extensionFor(type)}`);
  return apiJson<Transcript>("/api/transcribe", { method: "POST", body: form, signal });
}
