/**
 * A document's versions (API-11): every replaced original stays restorable until deleted. Restoring a
 * version makes it current (the one it replaces stays listed); only non-current versions can be deleted.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { vaultKeys } from "@/api/vault";
import { apiJson, apiSend } from "@/lib/api";
import type { DocumentVersion, LibraryDocument, VersionDeleted, VersionList } from "./types";

export const versionsKey = (documentId: string) => [...vaultKeys.documents, documentId, "versions"] as const;

export async function fetchVersions(documentId: string): Promise<DocumentVersion[]> {
  const body = await apiJson<VersionList>(`/api/documents/${encodeURIComponent(documentId)}/versions`);
  return body.versions;
}

export function versionFileUrl(documentId: string, version: number): string {
  return `/api/documents/${encodeURIComponent(documentId)}/versions/${version}/file`;
}

export function useVersions(documentId: string | null) {
  return useQuery({
    queryKey: versionsKey(documentId ?? ""),
    queryFn: () => fetchVersions(documentId as string),
    enabled: documentId !== null,
  });
}

function useVersionMutation<TResult>(mutationFn: (version: number) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // The documents key covers this document's versions too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: vaultKeys.documents }),
  });
}

export function useRestoreVersion(documentId: string) {
  return useVersionMutation((version) => apiSend<LibraryDocument>(
    "POST", `/api/documents/${encodeURIComponent(documentId)}/versions/${version}/restore`));
}

export function useDeleteVersion(documentId: string) {
  return useVersionMutation((version) => apiSend<VersionDeleted>(
    "DELETE", `/api/documents/${encodeURIComponent(documentId)}/versions/${version}`));
}
