import { describe, expect, it } from 'vitest'
import * as hooks from './index.js'

describe('@gridforge/react-hooks exports', () => {
  // A change to this list is an API change: review it (and add a changeset).
  it('exports exactly these names', () => {
    expect(Object.keys(hooks).sort()).toMatchSnapshot()
  })

  it('exports functions only: a hook per query and mutation, and the connector', () => {
    for (const [name, value] of Object.entries(hooks)) {
      expect(typeof value, name).toBe('function')
      expect(name === 'localAccount' || /^use[A-Z]/.test(name), name).toBe(true)
    }
  })
})
