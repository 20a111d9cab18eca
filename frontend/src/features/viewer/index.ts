/** The viewer feature's public surface: the full-page viewer. (The embeddable viewer is in components/viewer.) */
export { ViewerPage } from "./components/ViewerPage";
