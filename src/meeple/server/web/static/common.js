// The language switch: remembered in a cookie (the server renders pages in it) and reloaded.
const select = document.getElementById("lang");
if (select) {
  select.addEventListener("change", () => {
    document.cookie = `lang=${encodeURIComponent(select.value)}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });
}
