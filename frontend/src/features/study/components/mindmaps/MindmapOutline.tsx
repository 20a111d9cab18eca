/** The map as a nested list: the same topics, readable with a screen reader or on a small phone. */
import type { MindNode } from "@/features/study/api/types";
import { SourceLinks } from "../SourceLinks";

function Branch({ node, depth }: { node: MindNode; depth: number }) {
  return (
    <li className={depth === 0 ? "" : "mt-2"}>
      <div className="space-y-1">
        <p className={depth === 0 ? "text-base font-semibold" : depth === 1 ? "text-sm font-medium" : "text-sm text-ink-muted"}>{node.label}</p>
        <SourceLinks sources={node.sources} max={2} />
      </div>
      {node.children.length > 0 && (
        <ul className="mt-1 border-l border-line pl-4">
          {node.children.map((child) => <Branch key={child.id} node={child} depth={depth + 1} />)}
        </ul>
      )}
    </li>
  );
}

export function MindmapOutline({ root }: { root: MindNode }) {
  return (
    <div className="h-full overflow-y-auto">
      <ul className="mx-auto max-w-3xl px-4 py-6 sm:px-6" aria-label="Mind map outline" data-testid="mindmap-outline">
        <Branch node={root} depth={0} />
      </ul>
    </div>
  );
}
