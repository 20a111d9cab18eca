import { describe, expect, it } from "vitest";
import type { MindNode } from "../api/types";
import { autoLayout, countNodes, flattenTree, mergePositions, movedPositions, nodeSize } from "./mindmap";

const leaf = (id: string, label = `Node ${id}`): MindNode => ({ id, label, sources: [], children: [] });
const tree: MindNode = {
  id: "n0", label: "Biology", sources: [{ block_id: "b", document_id: "d", filename: "bio.md", page: null }],
  children: [
    { ...leaf("n1", "Cells"), children: [leaf("n1.1", "Mitochondria"), leaf("n1.2", "Ribosomes")] },
    { ...leaf("n2", "Plants"), children: [leaf("n2.1", "Photosynthesis")] },
    leaf("n3", "Genetics"),
  ],
};

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe("mind map graph", () => {
  it("flattens the tree into nodes with depth and parent→child edges", () => {
    const { nodes, edges } = flattenTree(tree);
    expect(nodes.map((n) => [n.id, n.depth, n.parentId])).toEqual([
      ["n0", 0, null], ["n1", 1, "n0"], ["n1.1", 2, "n1"], ["n1.2", 2, "n1"], ["n2", 1, "n0"], ["n2.1", 2, "n2"], ["n3", 1, "n0"],
    ]);
    expect(edges).toHaveLength(6);
    expect(edges[0]).toEqual({ id: "n0->n1", source: "n0", target: "n1" });
    expect(nodes[0]?.sources[0]?.filename).toBe("bio.md");
    expect(countNodes(tree)).toBe(7);
  });

  it("sizes boxes by label, wrapping long ones at a maximum width", () => {
    const short = nodeSize("Cells", 1);
    const long = nodeSize("A rather long label that will certainly need to wrap onto a second line", 1);
    expect(long.width).toBeGreaterThanOrEqual(short.width);
    expect(long.height).toBeGreaterThan(short.height);
    expect(nodeSize("Biology", 0).height).toBeGreaterThan(nodeSize("Biology", 2).height);
  });

  it("wraps at word boundaries by the measured width, as the browser does", () => {
    const tenPerChar = (text: string) => text.length * 10; // inner width at level 2 is 180 px = 18 chars
    expect(nodeSize("short", 2, tenPerChar)).toEqual({ width: 90, height: 37 }); // the minimum width
    const two = nodeSize("mitochondria make energy", 2, tenPerChar); // "mitochondria make" | "energy"
    expect(two).toEqual({ width: 200, height: 56 });
    expect(nodeSize("a-very-long-single-word-that-cannot-wrap", 2, tenPerChar).height).toBe(3 * 19 + 18);
  });

  it("lays out left-to-right with children to the right of their parent, without overlaps", () => {
    const { nodes, edges } = flattenTree(tree);
    const positions = autoLayout(nodes, edges, "LR");
    const box = (id: string) => {
      const node = nodes.find((n) => n.id === id)!;
      return { ...positions[id]!, width: node.width, height: node.height };
    };
    for (const edge of edges) expect(box(edge.target).x).toBeGreaterThan(box(edge.source).x + box(edge.source).width);
    for (const a of nodes) for (const b of nodes) if (a.id < b.id) expect(overlaps(box(a.id), box(b.id))).toBe(false);
  });

  it("lays out top-to-bottom with children below their parent", () => {
    const { nodes, edges } = flattenTree(tree);
    const positions = autoLayout(nodes, edges, "TB");
    const height = (id: string) => nodes.find((n) => n.id === id)!.height;
    for (const edge of edges) expect(positions[edge.target]!.y).toBeGreaterThan(positions[edge.source]!.y + height(edge.source));
  });

  it("puts saved positions on top of the automatic ones and saves only what moved", () => {
    const auto = { n0: { x: 0, y: 0 }, n1: { x: 100, y: 0 } };
    const merged = mergePositions(auto, { n1: { x: 150, y: 40 }, gone: { x: 1, y: 1 } });
    expect(merged).toEqual({ n0: { x: 0, y: 0 }, n1: { x: 150, y: 40 } });
    expect(movedPositions(merged, auto)).toEqual({ n1: { x: 150, y: 40 } });
    expect(movedPositions(auto, auto)).toEqual({});
  });
});
