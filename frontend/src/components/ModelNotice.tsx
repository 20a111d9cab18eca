/**
 * The one notice for "the model can't be used right now": what is wrong (Ollama down, or the model not
 * pulled), the server's hint for fixing it, and what still works on this screen. Renders nothing while
 * the model is ready or its state is unknown.
 */
import { AlertTriangle } from "lucide-react";
import { chatModelReady, useHealth } from "@/api/vault";
import { cn } from "@/lib/cn";
import { CodeText } from "./CodeText";

export function ModelNotice({ consequence, stillWorks, className }: {
  /** What can't happen without the model, as the end of a sentence: "nothing new can be generated". */
  consequence: string;
  /** What the person can still do here. */
  stillWorks: string;
  className?: string;
}) {
  const { data } = useHealth();
  if (!data || chatModelReady(data) !== false) return null;
  const problem = data.ollama.reachable
    ? `The model ${data.ollama.chat_model.name} isn't installed in Ollama, so ${consequence}.`
    : `Ollama isn't running, so ${consequence}.`;
  return (
    <div role="status" data-testid="model-notice"
      className={cn("flex items-start gap-3 rounded-xl border border-warn/30 bg-warn-soft px-4 py-3 text-[13px] text-ink", className)}>
      <AlertTriangle size={16} className="mt-0.5 shrink-0 text-warn" />
      <div className="space-y-1">
        <p className="font-medium">{problem}</p>
        {data.hints.map((hint) => <p key={hint} className="text-ink-muted"><CodeText text={hint} /></p>)}
        <p className="text-ink-muted">{stillWorks}</p>
      </div>
    </div>
  );
}
