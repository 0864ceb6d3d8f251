// The settings sections, in the order the page lists them. A later surface
// adds its own with registerSection and a rank between the others': the
// extension's "Your browser" and "Pair your browser" after Computer &
// browser (rank 15), the Telegram pairing link after Privacy & Safety
// (rank 25).
export interface Section {
  id: string;
  title: string;
  rank: number; // the place in the list, lowest first

  // render fills root and returns what undoes its subscriptions.
  render: (root: HTMLElement) => () => void;
}

export const sections: Section[] = [];

export function registerSection(s: Section): void {
  sections.push(s);
  sections.sort((a, b) => a.rank - b.rank);
}
