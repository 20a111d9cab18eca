// Starts Swagger UI on /api/docs with Quire's OpenAPI schema. A file of its own (not inline in the page)
// so the app's Content-Security-Policy can keep script-src 'self'.
window.addEventListener("DOMContentLoaded", () => {
  window.ui = window.SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    layout: "BaseLayout",
    presets: [window.SwaggerUIBundle.presets.apis],
    validatorUrl: null, // never send the schema to swagger.io's validator
  });
});
