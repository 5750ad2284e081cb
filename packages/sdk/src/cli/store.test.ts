import { describe, expect, it } from 'vitest'
import { openStore } from './store.js'

describe('openStore', () => {
  it('opens a directory as an fs store and an http(s) URL as a Kubo store', () => {
    expect(openStore('/tmp/gridforge-store').description).toContain('/tmp/gridforge-store')
    expect(openStore('http://127.0.0.1:5001').description).toMatch(/kubo/i)
  })
})
