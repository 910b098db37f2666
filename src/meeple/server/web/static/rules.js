// The lobby's rules summary follows the game chosen: only that game's summary is offered.
const form = document.getElementById("create");
function follow() {
  const chosen = form.querySelector("input[name=game]:checked")?.value;
  for (const rules of document.querySelectorAll(".rules-summary")) rules.hidden = rules.dataset.game !== chosen;
}
form.addEventListener("change", (event) => { if (event.target.name === "game") follow(); });
follow();
