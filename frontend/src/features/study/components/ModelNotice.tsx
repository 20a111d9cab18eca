/** Why nothing new can be generated right now (no model), what to run, and what still works. */
import { AlertTriangle } from "lucide-react";
import { chatModelReady, useHealth } from "@/api/vault";
import { CodeText } from "@/components/CodeText";

export function StudyModelNotice() {
  const health = useHealth();
  const data = health.data;
  if (!data || chatModelReady(data) !== false) return null;
  const problem = !data.ollama.reachable
    ? "Ollama isn't running, so nothing new can be generated."
    : `The model ${data.ollama.chat_model.name} isn't installed in Ollama, so nothing new can be generated.`;
  return (
    <div role="status" data-testid="model-notice" className="flex items-start gap-3 rounded-xl border border-warn/30 bg-warn-soft px-4 py-3 text-[13px] text-ink">
      <AlertTriangle size={16} className="mt-0.5 shrink-0 text-warn" />
      <div className="space-y-1">
        <p className="font-medium">{problem}</p>
        {data.hints.map((hint) => <p key={hint} className="text-ink-muted"><CodeText text={hint} /></p>)}
        <p className="text-ink-muted">Quizzes, decks, workshops and mind maps you already have keep working.</p>
      </div>
    </div>
  );
}
