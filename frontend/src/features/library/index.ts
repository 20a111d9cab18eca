/** The library feature's public surface: the screen. Everything else here is internal. */
export { LibraryPage } from "./components/LibraryPage";
export { NoteEditorPage } from "./components/NoteEditorPage";
