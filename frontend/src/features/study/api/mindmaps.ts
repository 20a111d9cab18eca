/** Mind maps: list, read, save or reset the layout, record exports, the Markdown outline, delete. */
import { useQuery } from "@tanstack/react-query";
import { apiFetch, apiJson, apiSend } from "@/lib/api";
import { filenameFromDisposition } from "@/lib/download";
import { studyKeys } from "./keys";
import { useDeleteRecord } from "./records";
import type { MapLayout, Mindmap, MindmapExportFormat, MindmapSummary, Positions } from "./types";

const base = (id: string) => `/api/study/mindmaps/${encodeURIComponent(id)}`;

export function useMindmaps() {
  return useQuery({ queryKey: studyKeys.mindmaps, queryFn: () => apiJson<MindmapSummary[]>("/api/study/mindmaps") });
}

export function useMindmap(id: string) {
  return useQuery({ queryKey: studyKeys.mindmap(id), queryFn: () => apiJson<Mindmap>(base(id)) });
}

export function saveLayout(id: string, layout: MapLayout, positions: Positions): Promise<Mindmap> {
  return apiSend<Mindmap>("PUT", `${base(id)}/layout`, { layout, positions });
}

export function resetLayout(id: string): Promise<Mindmap> {
  return apiSend<Mindmap>("DELETE", `${base(id)}/layout`);
}

export function recordExport(id: string, format: MindmapExportFormat): Promise<unknown> {
  return apiSend("POST", `${base(id)}/exports`, { format });
}

export async function fetchMarkdown(id: string): Promise<{ filename: string | null; blob: Blob }> {
  const response = await apiFetch(`${base(id)}/markdown`);
  return { filename: filenameFromDisposition(response.headers.get("Content-Disposition")), blob: await response.blob() };
}

export function useDeleteMindmap() {
  return useDeleteRecord<MindmapSummary>(base, studyKeys.mindmaps, studyKeys.mindmap);
}
