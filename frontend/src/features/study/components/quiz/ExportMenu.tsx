/** Download a quiz as Markdown: the questions alone, with the answers, or with answers and explanations. */
import { ChevronDown, Download } from "lucide-react";
import { Popover } from "@/components/Popover";
import { cn } from "@/lib/cn";
import { quizExportUrl, type QuizExportMode } from "@/features/study/api/quizzes";

const MODES: Array<{ mode: QuizExportMode; label: string; hint: string }> = [
  { mode: "questions", label: "Questions only", hint: "To print and test yourself" },
  { mode: "answers", label: "With answers", hint: "An answer key after each question" },
  { mode: "explanations", label: "With explanations", hint: "Answers, why, and the sources" },
];

export function QuizExportMenu({ quizId }: { quizId: string }) {
  return (
    <Popover
      label="Export as Markdown"
      align="end"
      className="w-72"
      trigger={({ open, toggle, id }) => (
        <button type="button" aria-expanded={open} aria-controls={id} onClick={toggle}
          className={cn("inline-flex h-9 items-center gap-2 rounded-lg border border-line-strong bg-surface px-3.5 text-sm font-medium text-ink hover:bg-surface-2")}>
          <Download size={15} /> Export <ChevronDown size={14} className="text-ink-faint" />
        </button>
      )}
    >
      {(close) => (
        <div className="flex flex-col">
          <p className="px-2 pt-1 pb-1.5 text-xs font-medium text-ink-faint">Markdown file</p>
          {MODES.map(({ mode, label, hint }) => (
            <a key={mode} href={quizExportUrl(quizId, mode)} download onClick={close}
              className="rounded-md px-2 py-1.5 text-sm hover:bg-surface-2">
              <span className="block font-medium text-ink">{label}</span>
              <span className="block text-xs text-ink-muted">{hint}</span>
            </a>
          ))}
        </div>
      )}
    </Popover>
  );
}
