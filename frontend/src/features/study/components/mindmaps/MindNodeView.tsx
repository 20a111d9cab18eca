/** A mind map node: the central topic stands out, each level below is quieter; selection shows a ring. */
import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { cn } from "@/lib/cn";
import type { MapLayout } from "@/features/study/api/types";

export interface MindData extends Record<string, unknown> {
  label: string;
  depth: number;
  childCount: number;
  layout: MapLayout;
}

export type MindFlowNode = Node<MindData, "mind">;

// Sizes and weights match LEVEL_FONTS in lib/mindmap.ts, which sizes the boxes before layout.
const LEVELS = [
  "border-accent bg-accent text-[15px] leading-[21px] font-semibold text-accent-ink shadow-card",
  "border-accent/35 bg-accent-soft text-[13px] leading-[19px] font-medium text-accent-soft-ink",
  "border-line-strong bg-surface text-[13px] leading-[19px] text-ink",
  "border-line bg-surface-2 text-[13px] leading-[19px] text-ink-muted",
];

export const MindNodeView = memo(function MindNodeView({ data, selected }: NodeProps<MindFlowNode>) {
  const horizontal = data.layout === "LR";
  return (
    <div
      className={cn(
        "flex h-full w-full items-center justify-center rounded-xl border px-3.5 py-2 text-center break-words transition-shadow",
        LEVELS[Math.min(data.depth, LEVELS.length - 1)],
        selected && "ring-2 ring-accent ring-offset-2 ring-offset-canvas",
      )}
    >
      {data.depth > 0 && <Handle type="target" position={horizontal ? Position.Left : Position.Top} isConnectable={false} />}
      <span>{data.label}</span>
      {data.childCount > 0 && <Handle type="source" position={horizontal ? Position.Right : Position.Bottom} isConnectable={false} />}
    </div>
  );
});
