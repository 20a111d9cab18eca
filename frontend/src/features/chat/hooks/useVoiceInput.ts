/**
 * The composer's mic: record with MediaRecorder, stop (by the user or at the length limit), send the
 * recording for transcription and hand the text back. The microphone is released as soon as
 * recording stops; the audio is only ever held in memory.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "@/lib/api";
import { MAX_RECORDING_MS, recordingMimeType, transcribe } from "../lib/voice";

export type VoiceState = "idle" | "recording" | "transcribing";

export function useVoiceInput(onText: (text: string) => void, onError: (message: string) => void) {
  const [state, setState] = useState<VoiceState>("idle");
  const recorder = useRef<MediaRecorder | null>(null);
  const limit = useRef<number | undefined>(undefined);
  const aborter = useRef<AbortController | null>(null);
  const callbacks = useRef({ onText, onError });
  useEffect(() => {
    callbacks.current = { onText, onError };
  });

  const finish = useCallback(async (chunks: Blob[], type: string) => {
    const recording = new Blob(chunks, { type });
    if (!recording.size) {
      setState("idle");
      callbacks.current.onError("Nothing was recorded.");
      return;
    }
    setState("transcribing");
    aborter.current = new AbortController();
    try {
      const { text } = await transcribe(recording, aborter.current.signal);
      if (text.trim()) callbacks.current.onText(text.trim());
      else callbacks.current.onError("No speech was recognised in the recording.");
    } catch (error) {
      if (!(error instanceof DOMException && error.name === "AbortError")) callbacks.current.onError(errorMessage(error));
    } finally {
      aborter.current = null;
      setState("idle");
    }
  }, []);

  const start = useCallback(async () => {
    if (recorder.current) return;
    if (!window.isSecureContext) {  // browsers offer the microphone only to https pages and localhost
      callbacks.current.onError("The microphone needs a secure connection: open Quire over https or on this machine.");
      return;
    }
    if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices) {
      callbacks.current.onError("This browser cannot record audio.");
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      callbacks.current.onError("Quire may not use the microphone. Allow it in the browser's site settings.");
      return;
    }
    const mimeType = recordingMimeType((type) => MediaRecorder.isTypeSupported(type));
    const media = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    media.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    media.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      window.clearTimeout(limit.current);
      recorder.current = null;
      void finish(chunks, media.mimeType || mimeType || "audio/webm");
    };
    recorder.current = media;
    media.start();
    setState("recording");
    limit.current = window.setTimeout(() => media.state === "recording" && media.stop(), MAX_RECORDING_MS);
  }, [finish]);

  const stop = useCallback(() => {
    if (recorder.current?.state === "recording") recorder.current.stop();
  }, []);

  useEffect(() => () => {  // leaving the page: release the microphone and drop a transcription in flight
    const media = recorder.current;
    if (media) {
      media.onstop = null;
      if (media.state === "recording") media.stop();
      media.stream.getTracks().forEach((track) => track.stop());
    }
    window.clearTimeout(limit.current);
    aborter.current?.abort();
  }, []);

  return { state, start, stop };
}
