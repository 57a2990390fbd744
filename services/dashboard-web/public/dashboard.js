/* global document, navigator, HTMLElement */
// Progressive enhancements only: every page works without this file.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  // A form's problem summary takes focus, so screen readers announce it and keyboard users start there.
  const problem = document.querySelector('[data-focus]');
  if (problem instanceof HTMLElement) problem.focus();

  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.getAttribute('data-copy') ?? '');
      if (source === null || navigator.clipboard === undefined) return;
      await navigator.clipboard.writeText(source.textContent ?? '');
      const label = button.textContent;
      button.textContent = button.getAttribute('data-copied') ?? label;
      setTimeout(() => {
        button.textContent = label;
      }, 2000);
    });
  }
});
