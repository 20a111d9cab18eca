/** Library mutations: upload (with byte progress), URL import, recategorise, delete. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DocumentOut, UploadAccepted } from "@/api/types";
import { vaultKeys } from "@/api/vault";
import { ApiError, apiSend, NETWORK_ERROR_MESSAGE } from "@/lib/api";

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
 * Uploads files as multipart (`files` + optional `category`). XHR rather than fetch so the caller gets
 * byte progress for large files.
 */
export function uploadFiles(
  files: File[],
  category: string | null,
  onProgress?: (fraction: number) => void,
): Promise<UploadAccepted> {
  const form = new FormData();
  files.forEach((file) => form.append("files", file, file.name));
  if (category) form.append("category", category);
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

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", `/api/documents/${id}`),
    onSuccess: (_, id) => {
      queryClient.setQueryData<DocumentOut[]>(vaultKeys.documents, (docs) => docs?.filter((doc) => doc.id !== id));
      void queryClient.invalidateQueries({ queryKey: vaultKeys.documents });
      void queryClient.invalidateQueries({ queryKey: vaultKeys.categories });
    },
  });
}
