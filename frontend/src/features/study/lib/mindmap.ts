/**
 * A mind map's tree as a graph: flat nodes (with depth and an estimated box size) and parent→child
 * edges, laid out by dagre left-to-right or top-to-bottom, with the user's dragged positions on top.
 * Positions are top-left corners (what React Flow uses); dagre works with centres. Pure.
 */
import dagre from "@dagrejs/dagre";
import type { MapLayout, MindNode, Positions, Source } from "../api/types";

export interface FlatNode {
  id: string;
  label: string;
  depth: number;
  parentId: string | null;
  sources: Source[];
  childCount: number;
  width: number;
  height: number;
}

export interface FlatEdge {
  id: string;
  source: string;
  target: string;
}

/** The type of each level (kept in step with MindNodeView's classes). */
export const LEVEL_FONTS = [
  { size: 15, weight: 600, lineHeight: 21, maxWidth: 260, minWidth: 140 }, // the central topic
  { size: 13, weight: 500, lineHeight: 19, maxWidth: 220, minWidth: 110 }, // branches
  { size: 13, weight: 400, lineHeight: 19, maxWidth: 210, minWidth: 90 }, // deeper levels
] as const;
const PAD_X = 30; // px-3.5 and the border, plus a little slack for rounding
const PAD_Y = 18;

/** Text width in px at a level's font; the browser measures it, tests and fallbacks estimate it. */
export type Measure = (text: string, depth: number) => number;

function levelFont(depth: number) {
  return LEVEL_FONTS[Math.min(depth, LEVEL_FONTS.length - 1)] ?? LEVEL_FONTS[2];
}

/** An average-character estimate (about 0.6 em per character), for when nothing can measure. */
export const estimateWidth: Measure = (text, depth) => text.length * levelFont(depth).size * 0.6;

/** The box a label needs: words wrapped greedily at the level's max width, as the browser wraps them. */
export function nodeSize(label: string, depth: number, measure: Measure = estimateWidth): { width: number; height: number } {
  const font = levelFont(depth);
  const inner = font.maxWidth - PAD_X;
  const widths: number[] = [];
  let line = "";
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || measure(candidate, depth) <= inner) line = candidate;
    else {
      widths.push(measure(line, depth));
      line = word;
    }
  }
  widths.push(measure(line, depth));
  // A single word wider than the box breaks inside the word (CSS break-words).
  const lines = widths.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / inner)), 0);
  const widest = Math.min(inner, Math.max(...widths));
  return { width: Math.max(font.minWidth, Math.ceil(widest + PAD_X)), height: Math.ceil(lines * font.lineHeight + PAD_Y) };
}

export function flattenTree(root: MindNode, measure: Measure = estimateWidth): { nodes: FlatNode[]; edges: FlatEdge[] } {
  const nodes: FlatNode[] = [];
  const edges: FlatEdge[] = [];
  const visit = (node: MindNode, depth: number, parentId: string | null) => {
    nodes.push({ id: node.id, label: node.label, depth, parentId, sources: node.sources,
      childCount: node.children.length, ...nodeSize(node.label, depth, measure) });
    if (parentId) edges.push({ id: `${parentId}->${node.id}`, source: parentId, target: node.id });
    node.children.forEach((child) => visit(child, depth + 1, node.id));
  };
  visit(root, 0, null);
  return { nodes, edges };
}

/** Automatic positions for every node, by dagre, in the chosen direction. */
export function autoLayout(nodes: readonly FlatNode[], edges: readonly FlatEdge[], layout: MapLayout): Positions {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: layout, nodesep: layout === "LR" ? 16 : 28, ranksep: layout === "LR" ? 72 : 64,
    marginx: 24, marginy: 24 });
  graph.setDefaultEdgeLabel(() => ({}));
  nodes.forEach((node) => graph.setNode(node.id, { width: node.width, height: node.height }));
  edges.forEach((edge) => graph.setEdge(edge.source, edge.target));
  dagre.layout(graph);
  const positions: Positions = {};
  for (const node of nodes) {
    const placed = graph.node(node.id);
    positions[node.id] = { x: Math.round((placed.x ?? 0) - node.width / 2), y: Math.round((placed.y ?? 0) - node.height / 2) };
  }
  return positions;
}

/** The automatic layout with the user's saved positions (of nodes that still exist) on top. */
export function mergePositions(auto: Positions, saved: Positions | undefined): Positions {
  const merged: Positions = { ...auto };
  for (const [id, position] of Object.entries(saved ?? {})) {
    if (id in merged) merged[id] = { x: position.x, y: position.y };
  }
  return merged;
}

/** Positions that differ from the automatic layout: only those need saving. */
export function movedPositions(current: Positions, auto: Positions): Positions {
  const moved: Positions = {};
  for (const [id, position] of Object.entries(current)) {
    const base = auto[id];
    if (!base || Math.abs(base.x - position.x) > 0.5 || Math.abs(base.y - position.y) > 0.5) {
      moved[id] = { x: Math.round(position.x), y: Math.round(position.y) };
    }
  }
  return moved;
}

/** How many nodes a tree has, its root included. */
export function countNodes(root: MindNode): number {
  return 1 + root.children.reduce((sum, child) => sum + countNodes(child), 0);
}
