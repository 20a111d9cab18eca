/**
 * What the UI says about an answer's grounding (backend/agent/grounding.py) — the same words the stream's
 * `grounding` line carries, for answers read back from a stored transcript. Pure.
 */
import type { GroundingStatus } from "../api/types";

const MESSAGES: Record<GroundingStatus, string> = {
  cited: "From your documents.",
  uncited: "Not from your documents: this answer cites none of the passages found to cover your question. Check it against them.",
  not_covered: "Not from your documents: nothing in them covers this question, so this answer comes from the model alone.",
  passages: "The model did not answer, so these are the passages of your documents that match.",
};

export function groundingMessage(status: GroundingStatus): string {
  return MESSAGES[status];
}

/** An answer the user must not take for the documents' word. */
export function isUngrounded(status: GroundingStatus | undefined): boolean {
  return status === "uncited" || status === "not_covered";
}

/** "1,270 tokens" — the size of what the model is reading. */
export function readingLabel(tokens: number, waitedS: number): string {
  const size = `${tokens.toLocaleString("en")} tokens`;
  if (waitedS < 5) return `The model is reading (${size})…`;
  const waited = waitedS < 90 ? `${Math.round(waitedS)} s` : `${Math.round(waitedS / 60)} min`;
  return `The model is still reading (${size}, ${waited} so far) — on a computer without a graphics card this can take minutes.`;
}
