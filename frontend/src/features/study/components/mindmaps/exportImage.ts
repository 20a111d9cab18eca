/**
 * Rendering the whole map (not just what is on screen) to a PNG, and that PNG into a one-page PDF of
 * the same proportions. html-to-image and jsPDF load only when an export is asked for.
 *
 * html-to-image is pinned to 1.11.11: with 1.11.13 the edges were
 * missing from the image: boxes without their connecting lines (tests/e2e/test_mindmap_export.py checks).
 */
import { getNodesBounds, getViewportForBounds, type Node } from "@xyflow/react";

const MARGIN = 48;
const MAX_SIDE = 4096;

export async function renderPng(flowElement: HTMLElement, nodes: Node[]): Promise<{ dataUrl: string; width: number; height: number }> {
  const viewportElement = flowElement.querySelector<HTMLElement>(".react-flow__viewport");
  if (!viewportElement) throw new Error("The map isn't on screen yet.");
  const bounds = getNodesBounds(nodes);
  const scale = Math.min(1, MAX_SIDE / (bounds.width + 2 * MARGIN), MAX_SIDE / (bounds.height + 2 * MARGIN));
  const width = Math.ceil((bounds.width + 2 * MARGIN) * scale);
  const height = Math.ceil((bounds.height + 2 * MARGIN) * scale);
  const viewport = getViewportForBounds(bounds, width, height, 0.05, 2, `${MARGIN * scale}px`);
  const background = getComputedStyle(document.documentElement).getPropertyValue("--q-canvas").trim() || "#ffffff";
  const { toPng } = await import("html-to-image");
  const dataUrl = await toPng(viewportElement, {
    backgroundColor: background,
    width,
    height,
    pixelRatio: 2,
    skipFonts: true,
    style: { width: `${width}px`, height: `${height}px`, transform: `translate(${viewport.x}px, ${viewport.y}px) scale(${viewport.zoom})` },
  });
  return { dataUrl, width, height };
}

export async function pngToPdf(png: { dataUrl: string; width: number; height: number }): Promise<Blob> {
  const { jsPDF } = await import("jspdf");
  const pdf = new jsPDF({
    orientation: png.width >= png.height ? "landscape" : "portrait",
    unit: "px",
    format: [png.width, png.height],
    hotfixes: ["px_scaling"],
    compress: true,
  });
  pdf.addImage(png.dataUrl, "PNG", 0, 0, png.width, png.height);
  return pdf.output("blob");
}
