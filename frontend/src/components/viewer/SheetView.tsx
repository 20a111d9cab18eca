/**
 * A spreadsheet or CSV as tables, one per sheet, built from the extracted row groups; the cited group's
 * rows are marked and scrolled into view.
 */
import { useEffect, useRef } from "react";
import { Table2 } from "lucide-react";
import { Button } from "@/components/Button";
import { SkeletonRows } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import type { ViewerBlock } from "@/api/viewer";
import { Highlighted } from "./Highlighted";
import { useBlockWindow } from "./useBlockWindow";

interface SheetGroup {
  sheet: string | null;
  header: string[];
  blocks: ViewerBlock[];
}

function groupBySheet(blocks: ViewerBlock[]): SheetGroup[] {
  const groups: SheetGroup[] = [];
  for (const block of blocks) {
    const sheet = block.table?.sheet ?? null;
    const current = groups[groups.length - 1];
    if (current && current.sheet === sheet) current.blocks.push(block);
    else groups.push({ sheet, header: block.table?.header ?? [], blocks: [block] });
  }
  return groups;
}

export function SheetView({ documentId, block, terms }: { documentId: string; block: string | null; terms: readonly string[] }) {
  const { blocks, showEarlier, showLater } = useBlockWindow(documentId, block, 15);
  if (blocks.isPending) return <SkeletonRows rows={8} />;
  if (!blocks.data) return null;
  const data = blocks.data;
  return (
    <div className="flex flex-col gap-4" data-testid="sheet-view">
      {data.notice && <p className="rounded-lg bg-warn-soft p-3 text-[13px] text-ink">{data.notice}</p>}
      {data.has_before && <Button size="sm" variant="ghost" className="self-start" onClick={showEarlier}>Show earlier rows</Button>}
      {groupBySheet(data.blocks).map((group, index) => (
        <section key={`${group.sheet}-${index}`} className="overflow-hidden rounded-xl border border-line bg-surface shadow-card">
          {group.sheet && (
            <h2 className="flex items-center gap-2 border-b border-line bg-surface-2 px-4 py-2 text-sm font-semibold text-ink">
              <Table2 size={15} className="text-ink-muted" /> Sheet “{group.sheet}”
            </h2>
          )}
          <div className="overflow-x-auto">
            <table className="w-full border-collapse text-[13px]">
              <thead>
                <tr className="border-b border-line-strong bg-surface">
                  {group.header.map((cell, c) => (cell.trim()
                    ? <th key={c} className="px-3 py-2 text-left font-semibold whitespace-nowrap text-ink">{cell}</th>
                    : <td key={c} />))}
                </tr>
              </thead>
              <tbody>
                {group.blocks.map((b) => (
                  <SheetRows key={b.id} block={b} cited={b.id === data.target} terms={terms} width={group.header.length} />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
      {data.has_after && <Button size="sm" variant="ghost" className="self-start" onClick={showLater}>Show later rows</Button>}
    </div>
  );
}

function SheetRows({ block, cited, terms, width }: { block: ViewerBlock; cited: boolean; terms: readonly string[]; width: number }) {
  const first = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (cited) first.current?.scrollIntoView({ block: "center" });
  }, [cited]);
  const rows = block.table?.rows ?? block.text.split("\n").map((line) => [line]);
  return (
    <>
      {rows.map((row, r) => (
        <tr
          key={r}
          ref={r === 0 ? first : undefined}
          data-testid={cited ? "cited-row" : undefined}
          className={cn("border-b border-line last:border-0", cited ? "bg-accent-soft" : "even:bg-surface-2/50")}
        >
          {Array.from({ length: Math.max(width, row.length) }, (_, c) => (
            <td key={c} className={cn("px-3 py-1.5 align-top text-ink", cited && c === 0 && "border-l-4 border-l-accent")}>
              <Highlighted text={row[c] ?? ""} terms={cited ? terms : []} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** A small table (a DOCX table inside running text). */
export function SheetTable({ header, rows, marked, terms }: { header: string[]; rows: string[][]; marked: boolean; terms: readonly string[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-[13px]" data-testid={marked ? "cited-table" : undefined}>
        <thead>
          <tr className="border-b border-line-strong">
            {/* An empty header cell (a table's top-left corner) is no header: a screen reader would announce
                it for every cell of its column. */}
            {header.map((cell, c) => (cell.trim() ? <th key={c} className="px-2 py-1 text-left font-semibold">{cell}</th> : <td key={c} />))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r} className="border-b border-line last:border-0">
              {row.map((cell, c) => <td key={c} className="px-2 py-1 align-top"><Highlighted text={cell} terms={terms} /></td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
