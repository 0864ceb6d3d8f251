// The settings sections, in the order the page lists them. A later surface
// adds its own with registerSection: "Your browser" and "Pair your browser"
// (the extension), and the Telegram pairing link, go in "connections".
export interface Section {
  id: string;
  title: string;
  // render fills root and returns what undoes its subscriptions.
  render: (root: HTMLElement) => () => void;
}

export const sections: Section[] = [];

export function registerSection(s: Section, after?: string): void {
  const i = after ? sections.findIndex((x) => x.id === after) : -1;
  if (i >= 0) sections.splice(i + 1, 0, s);
  else sections.push(s);
}
