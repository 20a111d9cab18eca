/**
 * The interactive map: React Flow with dagre's layout (plus the user's dragged positions). Pan, zoom,
 * drag nodes (each finished move reports the positions that differ from the automatic layout), select a node
 * (click, or Tab to it and Enter) to see its sources. Remounted when the layout changes.
 */
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from "react";
import {
  Background,
  BackgroundVariant,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useNodesState,
  useReactFlow,
  type Edge,
  type Node,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "./mindmap.css";
import type { MapLayout, MindNode, Positions } from "@/features/study/api/types";
import { autoLayout, estimateWidth, flattenTree, LEVEL_FONTS, mergePositions, movedPositions, type Measure } from "@/features/study/lib/mindmap";
import { MindNodeView, type MindFlowNode } from "./MindNodeView";

const NODE_TYPES = { mind: MindNodeView };

/** Measures labels with the page's own font, so boxes are sized (and laid out) as they will render. */
function browserMeasure(): Measure {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return estimateWidth;
  const family = getComputedStyle(document.body).fontFamily || "sans-serif";
  return (text, depth) => {
    const font = LEVEL_FONTS[Math.min(depth, LEVEL_FONTS.length - 1)] ?? LEVEL_FONTS[2];
    context.font = `${font.weight} ${font.size}px ${family}`;
    return context.measureText(text).width;
  };
}

export interface CanvasHandle {
  element: () => HTMLElement | null;
  nodes: () => Node[];
  fit: () => void;
}

interface CanvasProps {
  root: MindNode;
  layout: MapLayout;
  saved: Positions;
  onMoved: (moved: Positions) => void;
  onSelect: (nodeId: string | null) => void;
}

const Canvas = forwardRef<CanvasHandle, CanvasProps>(function Canvas({ root, layout, saved, onMoved, onSelect }, ref) {
  const wrapper = useRef<HTMLDivElement>(null);
  const flow = useReactFlow<MindFlowNode>();
  const graph = useMemo(() => flattenTree(root, browserMeasure()), [root]);
  const auto = useMemo(() => autoLayout(graph.nodes, graph.edges, layout), [graph, layout]);
  const initialNodes = useMemo<MindFlowNode[]>(() => {
    const positions = mergePositions(auto, saved);
    return graph.nodes.map((node) => ({
      id: node.id,
      type: "mind",
      position: positions[node.id] ?? { x: 0, y: 0 },
      data: { label: node.label, depth: node.depth, childCount: node.childCount, layout },
      style: { width: node.width, minHeight: node.height },
      width: node.width,
      ariaLabel: `${node.depth === 0 ? "Central topic" : `Level ${node.depth}`}: ${node.label}`,
      connectable: false,
    }));
    // Only the first render's saved positions matter: later moves live in the nodes' own state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graph, auto, layout]);
  const edges = useMemo<Edge[]>(
    () => graph.edges.map((edge) => ({ ...edge, type: "default", focusable: false, selectable: false })),
    [graph],
  );
  const [nodes, , onNodesChange] = useNodesState<MindFlowNode>(initialNodes);

  // Report positions once a move is over (a drag ends, or an arrow-key move), only when they changed.
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (nodes.some((node) => node.dragging)) return;
    const moved = movedPositions(Object.fromEntries(nodes.map((node) => [node.id, node.position])), auto);
    const key = JSON.stringify(moved);
    if (reported.current === null) reported.current = key; // the positions it opened with
    else if (key !== reported.current) {
      reported.current = key;
      onMoved(moved);
    }
  }, [nodes, auto, onMoved]);

  useImperativeHandle(ref, () => ({
    element: () => wrapper.current,
    nodes: () => flow.getNodes(),
    fit: () => void flow.fitView({ padding: 0.12, duration: 250 }),
  }), [flow]);

  return (
    <div ref={wrapper} className="quire-flow h-full w-full" data-testid="mindmap-canvas" data-layout={layout}>
      <ReactFlow<MindFlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onSelectionChange={({ nodes: selected }) => onSelect(selected[0]?.id ?? null)}
        nodesConnectable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        fitView
        fitViewOptions={{ padding: 0.12 }}
        minZoom={0.15}
        maxZoom={2.5}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={{ "node.a11yDescription.default": "Press Enter to select this topic and see its sources; arrow keys move it." }}
      >
        <Background variant={BackgroundVariant.Dots} gap={22} size={1.2} />
        <Controls showInteractive={false} position="bottom-right" />
      </ReactFlow>
    </div>
  );
});

export const MindmapCanvas = forwardRef<CanvasHandle, CanvasProps>(function MindmapCanvas(props, ref) {
  return (
    <ReactFlowProvider>
      <Canvas ref={ref} {...props} />
    </ReactFlowProvider>
  );
});
