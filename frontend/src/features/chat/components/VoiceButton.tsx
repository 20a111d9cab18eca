/**
 * The composer's mic: records a question, then puts its transcription in the message box for the user to
 * check and send. Disabled, with what to install as its tooltip, when the server has no speech model.
 */
import { Mic, Square } from "lucide-react";
import { useHealth } from "@/api/vault";
import { IconButton } from "@/components/Button";
import { Spinner } from "@/components/Spinner";
import { useToast } from "@/components/Toast";
import { useVoiceInput } from "../hooks/useVoiceInput";
import { voiceUnavailableHint } from "../lib/voice";

export function VoiceButton({ onText }: { onText: (text: string) => void }) {
  const toast = useToast();
  const { data: health } = useHealth();
  const { state, start, stop } = useVoiceInput(onText, (message) =>
    toast({ tone: "error", title: "Voice input failed", body: message }));

  if (!health?.voice?.available) {
    const hint = health ? voiceUnavailableHint(health.voice?.hint) : "Checking whether voice input is available…";
    return (
      // A disabled button gets no hover events in some browsers; the wrapper carries the tooltip.
      <span title={hint} data-testid="voice-unavailable">
        <IconButton label="Ask by voice (not available)" size="sm" className="size-8" disabled aria-describedby="voice-hint">
          <Mic size={16} />
        </IconButton>
        <span id="voice-hint" className="sr-only">{hint}</span>
      </span>
    );
  }
  if (state === "recording") {
    return (
      <IconButton label="Stop recording" size="sm" variant="secondary" onClick={stop}
        className="size-8 animate-pulse rounded-full text-danger">
        <Square size={12} fill="currentColor" />
      </IconButton>
    );
  }
  if (state === "transcribing") {
    return (
      <IconButton label="Transcribing…" size="sm" className="size-8" disabled>
        <Spinner size={14} />
      </IconButton>
    );
  }
  return (
    <IconButton label="Ask by voice" size="sm" className="size-8" onClick={() => void start()}>
      <Mic size={16} />
    </IconButton>
  );
}
