/** The dashboard feature's public surface: the screen. Everything else here is internal. */
export { DashboardPage } from "./components/DashboardPage";
