/**
 * Adding to the library: drop many files (or pick them), or import a web page by URL, optionally into
 * a category. Everything starts ingesting at once; progress shows below. A name already taken in the
 * category by another file is asked about first (the conflict dialog).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Globe, UploadCloud } from "lucide-react";
import { useSearchParams } from "react-router";
import { useCategories } from "@/api/vault";
import { Button } from "@/components/Button";
import { DropZone } from "@/components/DropZone";
import { TextInput } from "@/components/Input";
import { useToast } from "@/components/Toast";
import { cn } from "@/lib/cn";
import { listNames, plural } from "@/lib/format";
import { ACCEPTED_TYPES } from "@/lib/formats";
import { importUrl } from "../api/documents";
import { conflictPrompts } from "../hooks/conflictPrompts";
import { ingestStore } from "../hooks/ingestStore";
import { uploadDrop } from "../hooks/uploadDrop";

export function AddDocuments({ prominent }: { prominent: boolean }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const [category, setCategory] = useState("");
  const [url, setUrl] = useState("");
  const categories = useCategories();
  const toast = useToast();
  const listId = useId();
  const [params, setParams] = useSearchParams();

  useEffect(() => {
    if (params.get("add") !== "1") return;
    chooseButton.current?.focus();
    chooseButton.current?.scrollIntoView({ block: "center" });
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete("add");
      return next;
    }, { replace: true });
  }, [params, setParams]);

  const chosenCategory = category.trim() || null;

  const addFiles = (files: File[]) => {
    if (!files.length) return;
    void uploadDrop(files, chosenCategory, conflictPrompts.ask).then(({ skipped }) => {
      if (skipped.length) {
        toast({ tone: "info", title: `Skipped ${plural(skipped.length, "file")}`, body: listNames(skipped.map((file) => file.name)) });
      }
    });
  };

  const submitUrl = (event: FormEvent) => {
    event.preventDefault();
    const value = url.trim();
    if (!value) return;
    if (!/^https?:\/\//i.test(value)) {
      toast({ tone: "error", title: "That doesn't look like a web address", body: "Use a full http:// or https:// URL." });
      return;
    }
    setUrl("");
    void ingestStore.submit(value.replace(/^https?:\/\//i, ""), () => importUrl(value, chosenCategory));
  };

  return (
    <section aria-labelledby="add-title" className="rounded-2xl border border-line bg-surface p-3 shadow-card sm:p-4">
      <h2 id="add-title" className="sr-only">Add documents</h2>
      <DropZone label="Drop files to add them to your library" onFiles={addFiles}>
        <div className={cn("flex flex-col items-center gap-3 px-5 text-center sm:flex-row sm:text-left", prominent ? "py-10 sm:py-12" : "py-5")}>
          <div className={cn("shrink-0 items-center justify-center rounded-2xl bg-accent-soft text-accent-soft-ink", prominent ? "flex size-14" : "hidden size-11 sm:flex")}>
            <UploadCloud size={prominent ? 26 : 20} />
          </div>
          <div className="min-w-0 flex-1">
            <p className={cn("font-medium text-ink", prominent && "text-base")}>
              <span className="hidden sm:inline">Drop files here to add them</span>
              <span className="sm:hidden">Add documents to your library</span>
            </p>
            <p className="mt-0.5 text-[13px] text-ink-muted">
              PDF, Word, PowerPoint, Excel, CSV, Markdown, text, HTML, photos of pages and recordings — as many as you like at once.
            </p>
          </div>
          <Button ref={chooseButton} variant="primary" onClick={() => fileInput.current?.click()}>
            Choose files
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            accept={ACCEPTED_TYPES}
            className="sr-only"
            tabIndex={-1}
            aria-label="Choose files to upload"
            onChange={(event) => {
              addFiles(Array.from(event.target.files ?? []));
              event.target.value = "";
            }}
          />
        </div>
      </DropZone>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <label className="flex items-center gap-2 text-[13px] text-ink-muted sm:w-64">
          <span className="shrink-0">Category</span>
          <TextInput
            list={listId}
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            placeholder="None"
            maxLength={200}
            className="w-full"
            aria-label="Category for new documents"
          />
          <datalist id={listId}>
            {categories.data?.map((cat) => <option key={cat.name} value={cat.name} />)}
          </datalist>
        </label>
        <form onSubmit={submitUrl} className="flex min-w-0 flex-1 items-center gap-2">
          <div className="relative min-w-0 flex-1">
            <Globe size={15} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-ink-faint" />
            <TextInput
              type="url"
              inputMode="url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              placeholder="Or import a web page: https://…"
              aria-label="Web page address to import"
              className="w-full pl-9"
            />
          </div>
          <Button type="submit" disabled={!url.trim()}>Import</Button>
        </form>
      </div>
    </section>
  );
}
