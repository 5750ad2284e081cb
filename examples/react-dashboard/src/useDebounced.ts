import { useEffect, useState } from 'react'

/**
 * `value`, once it has stopped changing for `delayMs`: what a form shows while the user types
 * need not be what is sent to the chain on every keystroke.
 */
export function useDebounced<value>(value: value, delayMs: number): value {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return settled
}
