/**
 * One conversation: the stored transcript plus the turn being streamed right now. Sending streams a
 * new turn (optionally rewinding to an earlier one — the edit and regenerate actions — and reusing its
 * attachments); stopping aborts the request, and the server keeps the partial answer. After each answer
 * the transcript is refetched and replaces the live turn, so what you see is what was stored. The memory
 * meter follows the latest answer, streamed or stored, so it survives a reload.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@/lib/api";
import { fileToBase64 } from "@/lib/files";
import { chatKeys, useSession } from "../api/sessions";
import { streamChat } from "../api/stream";
import type { AttachmentMeta, ChatRequest } from "../api/types";
import { attachmentKind } from "../lib/attachments";
import { applyEvent, latestMemory, newTurn, turnsFromTranscript, type ChatTurn } from "../lib/turns";

interface LiveTurn {
  turn: ChatTurn;
  sessionId?: string;
  /** Key of the stored turn this one replaces (it and every later turn are hidden). */
  cutFrom?: string;
}

export interface SendOptions {
  files?: File[];
  scope?: ChatRequest["scope"];
  /** Re-ask from this turn: it and every later turn are replaced. */
  rewind?: ChatTurn;
  /** With `rewind`: send that turn's attachments again (the server still has them). */
  reuseAttachments?: boolean;
}

export type SendResult = { ok: true } | { ok: false; error: string };

let localCounter = 0;

async function attachmentPayloads(files: File[]) {
  return Promise.all(files.map(async (file) => ({ name: file.name, mime_type: file.type, data: await fileToBase64(file) })));
}

function metaOf(files: File[]): AttachmentMeta[] {
  return files.map((file) => ({ name: file.name, mime_type: file.type, size_bytes: file.size, kind: attachmentKind(file) ?? undefined }));
}

export function useChat(sessionId: string | undefined, onSessionStarted: (id: string) => void) {
  const queryClient = useQueryClient();
  const session = useSession(sessionId);
  const [live, setLive] = useState<LiveTurn | null>(null);
  const controller = useRef<AbortController | null>(null);
  const streaming = live?.turn.status === "streaming";

  const stored = useMemo(() => turnsFromTranscript(session.data?.messages ?? []), [session.data]);

  // A different conversation was opened: forget the live turn of the previous one.
  useEffect(() => {
    setLive((current) => (current && current.sessionId !== sessionId && current.turn.status !== "streaming" ? null : current));
  }, [sessionId]);

  // The stored transcript caught up with the finished live turn: show the stored version. (While the
  // answer is written the stored row is a "partial" placeholder; a stopped turn stays live.)
  useEffect(() => {
    if (!live || live.turn.status === "streaming" || live.turn.status === "stopped") return;
    const caughtUp = stored.some((turn) => turn.answerId === live.turn.answerId && (turn.status !== "partial" || turn.error));
    if (caughtUp) setLive(null);
  }, [live, stored]);

  const turns = useMemo(() => {
    if (!live) return stored;
    const cut = live.cutFrom ? stored.findIndex((turn) => turn.key === live.cutFrom) : -1;
    const base = (cut >= 0 ? stored.slice(0, cut) : stored).filter(
      (turn) => !(live.turn.userMessageId && turn.userMessageId === live.turn.userMessageId),
    );
    return [...base, live.turn];
  }, [stored, live]);

  const memory = useMemo(() => latestMemory(turns), [turns]);

  const send = useCallback(async (message: string, options: SendOptions = {}): Promise<SendResult> => {
    if (controller.current) return { ok: false, error: "Wait for the current answer, or stop it first." };
    const files = options.files ?? [];
    const reuse = Boolean(options.rewind && options.reuseAttachments);
    const abort = new AbortController();
    controller.current = abort;
    const attachments = [...(reuse ? (options.rewind?.attachments ?? []) : []), ...metaOf(files)];
    setLive({ turn: newTurn(`local-${++localCounter}`, message, attachments), sessionId, cutFrom: options.rewind?.key });
    let started = false;
    let ended = false;
    try {
      const body: ChatRequest = {
        message,
        session_id: sessionId,
        scope: options.scope,
        attachments: files.length ? await attachmentPayloads(files) : undefined,
        rewind_to_message_id: options.rewind?.userMessageId,
        reuse_attachments: reuse,
      };
      for await (const event of streamChat(body, abort.signal)) {
        if (event.type === "start") {
          started = true;
          setLive((current) => current && { ...current, sessionId: event.data.session_id });
          void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
          if (event.data.session_id !== sessionId) onSessionStarted(event.data.session_id);
        }
        if (event.type === "done") ended = true;
        setLive((current) => current && { ...current, turn: applyEvent(current.turn, event) });
      }
      if (!ended) {
        setLive((current) => current && { ...current, turn: { ...current.turn, status: current.turn.answer ? "partial" : "error",
          error: { code: "connection_lost", message: "The connection to Quire was lost before the answer finished.", retryable: true } } });
      }
      return { ok: true };
    } catch (error) {
      if (abort.signal.aborted) {
        setLive((current) => current && { ...current, turn: { ...current.turn, status: "stopped" } });
        return { ok: true };
      }
      if (!started) {
        setLive(null); // nothing was stored: the question goes back into the composer
        return { ok: false, error: errorMessage(error) };
      }
      setLive((current) => current && { ...current, turn: { ...current.turn, status: "partial",
        error: { code: "connection_lost", message: errorMessage(error), retryable: true } } });
      return { ok: true };
    } finally {
      controller.current = null;
      void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
      if (started) void queryClient.invalidateQueries({ queryKey: ["chat", "session"] });
    }
  }, [sessionId, onSessionStarted, queryClient]);

  const stop = useCallback(() => controller.current?.abort(), []);

  return { session, turns, send, stop, streaming, memory };
}
