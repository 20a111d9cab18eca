/**
 * Writing a note, or editing one: Markdown with a preview. A note is stored and indexed like an uploaded
 * Markdown file — searchable, citable, usable for quizzes and cards — and each save of an edit is a new
 * version (the Versions dialog lists and restores them).
 */
import { useId, useState } from "react";
import { Eye, NotebookPen, Pencil, Save } from "lucide-react";
import { Link, useNavigate, useParams } from "react-router";
import { useEditNote, useCreateNote, useNote } from "@/api/notes";
import { useCategories } from "@/api/vault";
import { Button } from "@/components/Button";
import { TextArea, TextInput } from "@/components/Input";
import { Markdown } from "@/components/Markdown";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { viewerHref } from "@/lib/viewerLinks";

const TEMPLATE = "# Title\n\nWrite in Markdown: **bold**, lists, tables, links.\n";

function Editor({ markdown, setMarkdown }: { markdown: string; setMarkdown: (value: string) => void }) {
  const [preview, setPreview] = useState(false);
  return (
    <div className="rounded-2xl border border-line bg-surface shadow-card">
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
        <span className="text-xs text-ink-faint">Markdown</span>
        <Button size="sm" variant="ghost" icon={preview ? <Pencil size={14} /> : <Eye size={14} />} onClick={() => setPreview(!preview)}>
          {preview ? "Write" : "Preview"}
        </Button>
      </div>
      {preview
        ? <div className="min-h-80 p-4" data-testid="note-preview"><Markdown>{markdown}</Markdown></div>
        : <TextArea value={markdown} onChange={(event) => setMarkdown(event.target.value)} rows={18} maxLength={200_000}
            aria-label="Note text" className="min-h-80 w-full rounded-none border-0 font-mono text-[13px] focus-visible:ring-0" />}
    </div>
  );
}

function NewNote() {
  const navigate = useNavigate();
  const create = useCreateNote();
  const categories = useCategories();
  const listId = useId();
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState("Notes");
  const [markdown, setMarkdown] = useState(TEMPLATE);
  const toast = useToast();
  const save = () => create.mutate({ title: title.trim(), markdown, category: category.trim() || null }, {
    onSuccess: (note) => {
      toast({ tone: "success", title: "Note saved", body: `${note.filename} is being indexed; it is searchable in a moment.` });
      navigate(`/notes/${note.document_id}`, { replace: true });
    },
  });
  return (
    <form aria-label="New note" className="space-y-4" onSubmit={(event) => {
      event.preventDefault();
      save();
    }}>
      <div className="grid gap-3 sm:grid-cols-[1fr_14rem]">
        <TextInput value={title} onChange={(event) => setTitle(event.target.value)} required maxLength={120} placeholder="Title" aria-label="Title" />
        <TextInput value={category} onChange={(event) => setCategory(event.target.value)} maxLength={60} list={listId} placeholder="Category" aria-label="Category" />
        <datalist id={listId}>{categories.data?.map((cat) => <option key={cat.name} value={cat.name} />)}</datalist>
      </div>
      <Editor markdown={markdown} setMarkdown={setMarkdown} />
      {create.isError && <p role="alert" className="text-[13px] text-danger">{errorMessage(create.error)}</p>}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" icon={<Save size={15} />} loading={create.isPending} disabled={!title.trim() || !markdown.trim()}>Save note</Button>
      </div>
    </form>
  );
}

function EditNote({ id }: { id: string }) {
  const note = useNote(id);
  const edit = useEditNote(id);
  const toast = useToast();
  const [edited, setMarkdown] = useState<string | null>(null);
  if (note.isError) return <p role="alert" className="text-sm text-danger">{errorMessage(note.error)}</p>;
  if (!note.data) return <SkeletonRows rows={8} label="Loading the note" />;
  const markdown = edited ?? note.data.markdown;
  const changed = markdown !== note.data.markdown;
  return (
    <form aria-label="Edit note" className="space-y-4" onSubmit={(event) => {
      event.preventDefault();
      edit.mutate(markdown, { onSuccess: () => toast({ tone: "success", title: "Saved as a new version", body: "Cards citing a passage you changed will say so in Study." }) });
    }}>
      <p className="text-sm text-ink-muted">
        {note.data.filename}{note.data.category ? ` · ${note.data.category}` : ""} · version {note.data.version ?? "—"} ·{" "}
        <Link to={viewerHref(id)} className="text-accent hover:underline">Open in the viewer</Link>
      </p>
      <Editor markdown={markdown} setMarkdown={setMarkdown} />
      {edit.isError && <p role="alert" className="text-[13px] text-danger">{errorMessage(edit.error)}</p>}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" icon={<Save size={15} />} loading={edit.isPending} disabled={!changed || !markdown.trim()}>Save new version</Button>
      </div>
    </form>
  );
}

export function NoteEditorPage() {
  const { documentId } = useParams();
  return (
    <div className="mx-auto w-full max-w-4xl space-y-5 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <header>
        <Link to="/library" className="text-[13px] font-medium text-ink-muted hover:text-ink">‹ Library</Link>
        <h1 className="mt-1 flex items-center gap-2 text-xl font-semibold tracking-tight"><NotebookPen size={20} /> {documentId ? "Edit note" : "New note"}</h1>
        <p className="mt-0.5 text-sm text-ink-muted">A note is a source like your documents: chat cites it, and quizzes, cards and guides can be made from it.</p>
      </header>
      {documentId ? <EditNote key={documentId} id={documentId} /> : <NewNote />}
    </div>
  );
}
