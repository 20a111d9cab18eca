/** The chat feature's public surface: the screen. Everything else here is internal. */
export { ChatPage } from "./components/ChatPage";
