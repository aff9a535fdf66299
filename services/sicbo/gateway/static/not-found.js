// The page for what is not there: the server wrote its message in English (or the address's
// ?lang=); here it is put in the reader's own choice of language, from the same catalogue
// message and values, and the language switch offered as on every page.
import { languageSwitch, t } from "/static/i18n.js";

for (const node of document.querySelectorAll("[data-message]")) {
  try {
    node.textContent = t(node.dataset.message, JSON.parse(node.dataset.args || "{}"));
  } catch { /* unreadable values: the server's words stay */ }
}
languageSwitch();
