/** What the agent did: one chip per tool call, spinning while it runs, with its result summary. */
import { Calculator, Clock, FileSearch, GitCompare, List, Search, Wrench, type LucideIcon } from "lucide-react";
import { Spinner } from "@/components/Spinner";
import type { ToolCallEvent } from "../api/types";

const TOOLS: Record<string, { icon: LucideIcon; running: string; done: string }> = {
  search_knowledge_base: { icon: Search, running: "Searching", done: "Searched" },
  list_documents: { icon: List, running: "Listing documents", done: "Listed documents" },
  analyze_document: { icon: FileSearch, running: "Analysing", done: "Analysed" },
  compare_documents: { icon: GitCompare, running: "Comparing", done: "Compared" },
  calculator: { icon: Calculator, running: "Calculating", done: "Calculated" },
  current_time: { icon: Clock, running: "Checking the time", done: "Checked the time" },
};

function argText(tool: ToolCallEvent): string {
  const args = tool.args ?? {};
  const value = args.query ?? args.document ?? args.expression ?? args.question;
  if (typeof value === "string" && value) return `“${value.length > 60 ? `${value.slice(0, 57)}…` : value}”`;
  if (typeof args.a === "string" && typeof args.b === "string") return `${args.a} and ${args.b}`;
  return "";
}

export function toolLabel(tool: ToolCallEvent): string {
  // Quire's own search for the question, made before the model says anything.
  if (tool.by === "quire") return tool.status === "finished" ? "Searched your documents" : "Searching your documents";
  const known = TOOLS[tool.name];
  const verb = known ? (tool.status === "finished" ? known.done : known.running) : tool.name;
  return [verb, argText(tool)].filter(Boolean).join(" ");
}

export function ToolChips({ tools }: { tools: ToolCallEvent[] }) {
  if (!tools.length) return null;
  return (
    <ul aria-label="Tools used" className="flex flex-wrap gap-1.5">
      {tools.map((tool) => {
        const Icon = TOOLS[tool.name]?.icon ?? Wrench;
        const running = tool.status === "started";
        return (
          <li
            key={tool.id}
            data-testid="tool-chip"
            data-status={tool.status}
            data-by={tool.by ?? "model"}
            className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-line bg-surface px-2.5 py-1 text-xs text-ink-muted"
          >
            {running ? <Spinner size={12} className="text-accent" /> : <Icon size={12} className="shrink-0" />}
            <span className="truncate">{toolLabel(tool)}</span>
            {tool.summary && !running && <span className="shrink-0 text-ink-faint">· {tool.summary}</span>}
          </li>
        );
      })}
    </ul>
  );
}
