/**
 * Library mutations: upload (with byte progress, and the answer to a name conflict), URL import,
 * recategorise, move to the trash, retry a failed document.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DocumentOut, UploadAccepted } from "@/api/types";
import { vaultKeys } from "@/api/vault";
import { ApiError, apiSend, NETWORK_ERROR_MESSAGE } from "@/lib/api";
import type { OnConflict } from "./types";

function parseError(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { error?: { code: string; message: string; details?: unknown } };
    if (body.error) return new ApiError(status, body.error.code, body.error.message, body.error.details);
  } catch {
    // not JSON: fall through to a generic message
  }
  return new ApiError(status, "http_error", `The upload failed (HTTP ${status}).`);
}

/**
 * Uploads files as multipart (`files`, optional `category`, `on_conflict`). XHR rather than fetch so
 * the caller gets byte progress for large files. With `ask` a name already taken in the category by
 * other content is answered 409 `name_conflict` (see lib/conflicts.ts).
 */
export function uploadFiles(
  files: File[],
  category: string | null,
  onConflict: OnConflict,
  onProgress?: (fraction: number) => void,
): Promise<UploadAccepted> {
  const form = new FormData();
  files.forEach((file) => form.append("files", file, file.name));
  if (category) form.append("category", category);
  form.append("on_conflict", onConflict);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as UploadAccepted);
      else reject(parseError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(0, "network", NETWORK_ERROR_MESSAGE));
    xhr.send(form);
  });
}

export function importUrl(url: string, category: string | null): Promise<UploadAccepted> {
  return apiSend<UploadAccepted>("POST", "/api/documents/url", { url, category: category || null });
}

export function useSetCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, category }: { id: string; category: string | null }) =>
      apiSend<DocumentOut>("PATCH", `/api/documents/${id}`, { category }),
    onSuccess: (updated) => {
      queryClient.setQueryData<DocumentOut[]>(vaultKeys.documents, (docs) =>
        docs?.map((doc) => (doc.id === updated.id ? updated : doc)),
      );
      void queryClient.invalidateQueries({ queryKey: vaultKeys.categories });
    },
  });
}

/** Re-runs ingestion of a failed document from its stored original; answers like an upload. */
export function retryDocument(id: string): Promise<UploadAccepted> {
  return apiSend<UploadAccepted>("POST", `/api/documents/${encodeURIComponent(id)}/retry`);
}

/** Moves a document to the trash: gone from search and chat at once, restorable from the Trash view. */
export function useTrashDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<DocumentOut>("DELETE", `/api/documents/${encodeURIComponent(id)}`),
    onSuccess: (_, id) => {
      queryClient.setQueryData<DocumentOut[]>(vaultKeys.documents, (docs) => docs?.filter((doc) => doc.id !== id));
      void queryClient.invalidateQueries({ queryKey: vaultKeys.documents });
      void queryClient.invalidateQueries({ queryKey: vaultKeys.categories });
    },
  });
}
