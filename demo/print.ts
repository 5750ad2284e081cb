/** Terminal colours, only when stdout is a terminal and NO_COLOR is not set. */
const colour = process.stdout.isTTY === true && process.env.NO_COLOR === undefined
const paint = (code: number) => (text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text)

export const bold = paint(1)
export const dim = paint(2)
export const red = paint(31)
export const green = paint(32)
export const yellow = paint(33)

let count = 0
/** Prints a numbered step heading. */
export function step(title: string): void {
  count++
  console.log(`\n${bold(`${count}.`)} ${bold(title)}`)
}
