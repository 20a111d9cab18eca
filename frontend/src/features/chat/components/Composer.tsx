/**
 * The message box: Enter sends, Shift+Enter adds a line, Esc stops an answer. Files can be dropped on
 * it, pasted into it or picked; a question can be spoken (the mic puts its text here to check and send);
 * the scope picker and the memory meter sit in its toolbar.
 */
import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent } from "react";
import { ArrowUp, FileText, Image as ImageIcon, Paperclip, Square, X } from "lucide-react";
import { IconButton } from "@/components/Button";
import { ScopePicker, type Scope } from "@/components/ScopePicker";
import { useToast } from "@/components/Toast";
import { cn } from "@/lib/cn";
import { formatBytes } from "@/lib/format";
import type { MemoryInfo } from "../api/types";
import { ATTACHMENT_ACCEPT, attachmentKind, attachmentProblem, pastedName } from "../lib/attachments";
import { MemoryMeter } from "./MemoryMeter";
import { VoiceButton } from "./VoiceButton";

export interface ComposerHandle {
  restore: (text: string, files: File[]) => void;
  focus: () => void;
  setText: (text: string) => void;
}

export const Composer = forwardRef<ComposerHandle, {
  streaming: boolean;
  onSend: (text: string, files: File[]) => void;
  onStop: () => void;
  scope: Scope;
  onScopeChange: (scope: Scope) => void;
  memory?: MemoryInfo;
}>(function Composer({ streaming, onSend, onStop, scope, onScopeChange, memory }, ref) {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const toast = useToast();

  useImperativeHandle(ref, () => ({
    restore: (value, restored) => {
      setText(value);
      setFiles(restored);
      textarea.current?.focus();
    },
    focus: () => textarea.current?.focus(),
    setText: (value) => {
      setText(value);
      textarea.current?.focus();
    },
  }), []);

  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 220)}px`;
  }, [text]);

  const addFiles = (incoming: File[]) => {
    const accepted: File[] = [];
    for (const file of incoming) {
      const problem = attachmentProblem(file, files.length + accepted.length);
      if (problem) toast({ tone: "error", title: "Can't attach that file", body: problem });
      else accepted.push(file);
    }
    if (accepted.length) setFiles((current) => [...current, ...accepted]);
  };

  const send = () => {
    const message = text.trim();
    if (!message || streaming) return;
    onSend(message, files);
    setText("");
    setFiles([]);
  };

  const onPaste = (event: ClipboardEvent) => {
    const pasted = Array.from(event.clipboardData.files);
    if (!pasted.length) return;
    event.preventDefault();
    addFiles(pasted.map((file) => new File([file], pastedName(file), { type: file.type })));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      className="mx-auto w-full max-w-3xl shrink-0 px-3 pt-2 pb-3 sm:px-6 sm:pb-5"
    >
      <div
        onDragOver={(event) => {
          if (!Array.from(event.dataTransfer.types).includes("Files")) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "rounded-2xl border bg-surface shadow-card transition-colors focus-within:border-accent/60",
          dragging ? "border-accent bg-accent-soft" : "border-line-strong",
        )}
      >
        {files.length > 0 && (
          <ul aria-label="Attachments" className="flex flex-wrap gap-1.5 px-3 pt-3">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="inline-flex max-w-56 items-center gap-1.5 rounded-lg border border-line bg-surface-2 py-1 pr-1 pl-2 text-xs">
                {attachmentKind(file) === "image" ? <ImageIcon size={13} className="shrink-0 text-ink-faint" /> : <FileText size={13} className="shrink-0 text-ink-faint" />}
                <span className="truncate">{file.name}</span>
                <span className="shrink-0 text-ink-faint">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  aria-label={`Remove ${file.name}`}
                  onClick={() => setFiles((current) => current.filter((_, i) => i !== index))}
                  className="rounded p-0.5 text-ink-faint hover:bg-surface-3 hover:text-ink"
                >
                  <X size={12} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <textarea
          ref={textarea}
          data-search-target
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onPaste={onPaste}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              send();
            }
          }}
          placeholder={dragging ? "Drop to attach" : "Ask about your documents…"}
          aria-label="Message"
          className="block max-h-[220px] w-full resize-none bg-transparent px-4 pt-3 pb-1 text-[15px] leading-relaxed placeholder:text-ink-faint focus:outline-none focus-visible:outline-none"
        />
        <div className="flex items-center gap-1.5 px-2 pb-2">
          <IconButton label="Attach files" size="sm" className="size-8" onClick={() => picker.current?.click()}>
            <Paperclip size={16} />
          </IconButton>
          <input
            ref={picker}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-label="Files to attach"
            onChange={(event) => {
              addFiles(Array.from(event.target.files ?? []));
              event.target.value = "";
            }}
          />
          <VoiceButton onText={(spoken) => {
            setText((current) => (current.trim() ? `${current.trimEnd()} ${spoken}` : spoken));
            textarea.current?.focus();
          }} />
          <ScopePicker value={scope} onChange={onScopeChange} />
          <div className="ml-auto flex items-center gap-3">
            <MemoryMeter memory={memory} />
            {streaming ? (
              <IconButton label="Stop answering (Esc)" variant="secondary" size="sm" className="size-8 rounded-full" onClick={onStop}>
                <Square size={12} fill="currentColor" />
              </IconButton>
            ) : (
              <IconButton type="submit" label="Send (Enter)" variant="primary" size="sm" className="size-8 rounded-full" disabled={!text.trim()}>
                <ArrowUp size={16} strokeWidth={2.4} />
              </IconButton>
            )}
          </div>
        </div>
      </div>
      <p className="mt-1.5 hidden px-1 text-[11px] text-ink-faint sm:block">
        Enter to send · Shift+Enter for a new line · drop or paste files to attach · answers cite your documents
      </p>
    </form>
  );
});
