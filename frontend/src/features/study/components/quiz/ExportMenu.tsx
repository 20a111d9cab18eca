/** Download a quiz as Markdown: the questions alone, with the answers, or with answers and explanations. */
import { ChevronDown, Download } from "lucide-react";
import { Popover } from "@/components/Popover";
import { Button } from "@/components/Button";
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
        <Button aria-expanded={open} aria-controls={id} onClick={toggle} icon={<Download size={15} />}>
          Export <ChevronDown size={14} className="text-ink-faint" />
        </Button>
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
