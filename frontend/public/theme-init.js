// Sets the theme class before React loads so a dark-mode user never sees a white flash.
(function () {
  try {
    var saved = localStorage.getItem("quire-theme");
    var dark = saved === "dark" || (saved !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
  } catch (e) {
    /* storage unavailable: the app applies the system theme itself */
  }
})();
