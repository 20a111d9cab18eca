/** A calm, clear notice when the chat model can't be used, with what to run — and what still works. */
import { AlertTriangle } from "lucide-react";
import type { HealthStatus } from "@/api/types";
import { CodeText } from "@/components/CodeText";

export function ModelNotice({ health }: { health: HealthStatus }) {
  const { ollama } = health;
  const problem = !ollama.reachable
    ? "Ollama isn't running, so the chat model can't answer."
    : `The chat model ${ollama.chat_model.name} isn't installed in Ollama.`;
  return (
    <div role="status" data-testid="model-notice" className="mx-auto flex w-full max-w-3xl items-start gap-3 rounded-xl border border-warn/30 bg-warn-soft px-4 py-3 text-[13px] text-ink">
      <AlertTriangle size={16} className="mt-0.5 shrink-0 text-warn" />
      <div className="space-y-1">
        <p className="font-medium">{problem}</p>
        {health.hints.map((hint) => <p key={hint} className="text-ink-muted"><CodeText text={hint} /></p>)}
        <p className="text-ink-muted">You can still ask: Quire will show the passages from your documents that match.</p>
      </div>
    </div>
  );
}
