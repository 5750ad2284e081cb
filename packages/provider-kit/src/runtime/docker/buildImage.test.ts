import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { docker } from '../../../test/docker.js'
import { ImageBuildError } from '../../errors.js'
import { buildImage } from './buildImage.js'

let context: string

beforeAll(async () => {
  context = await mkdtemp(path.join(tmpdir(), 'gridforge-build-image-'))
  await copyFile('/bin/busybox', path.join(context, 'busybox'))
})
afterAll(() => rm(context, { recursive: true, force: true }))

describe('buildImage (the real engine)', () => {
  test('builds the context directory: the Id is the image the tag names, the digest its bytes32; a rebuild is the same image', async () => {
    await writeFile(
      path.join(context, 'Dockerfile'),
      'FROM scratch\nCOPY busybox /bin/busybox\nCOPY hello.txt /hello.txt\nCMD ["/bin/busybox", "cat", "/hello.txt"]\n',
    )
    await writeFile(path.join(context, 'hello.txt'), 'hello from the build context\n')
    const built = await buildImage({ context, tag: 'gridforge-test/build-image:1' })
    const inspected = await docker().getImage('gridforge-test/build-image:1').inspect()
    expect(built).toEqual({ id: inspected.Id, digest: `0x${inspected.Id.slice('sha256:'.length)}` })
    expect(built.digest).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await buildImage({ context, tag: 'gridforge-test/build-image:1' })).toEqual(built)

    // What was copied from the context is in the image.
    const container = await docker().createContainer({ Image: built.id, Tty: true })
    try {
      await container.start()
      await container.wait()
      expect(String(await container.logs({ stdout: true, follow: false }))).toBe(
        'hello from the build context\r\n',
      )
    } finally {
      await container.remove({ force: true })
    }
  })

  test('a failing step: ImageBuildError with what the build printed', async () => {
    await writeFile(path.join(context, 'Dockerfile'), 'FROM scratch\nCOPY missing.txt /missing.txt\n')
    const error = (await buildImage({ context, tag: 'gridforge-test/build-image:broken' }).catch(
      (e: unknown) => e,
    )) as ImageBuildError
    expect(error).toBeInstanceOf(ImageBuildError)
    expect(error.shortMessage).toBe('Building image gridforge-test/build-image:broken failed')
    expect(error.details).toMatch(/missing\.txt/)
    expect(error.output).toMatch(/Step 2\/2 : COPY missing\.txt/)
  })

  test('a context directory that does not exist: ImageBuildError saying so', async () => {
    const error = (await buildImage({ context: path.join(context, 'nowhere'), tag: 'x:1' }).catch(
      (e: unknown) => e,
    )) as ImageBuildError
    expect(error).toBeInstanceOf(ImageBuildError)
    expect(error.details).toMatch(/ENOENT/)
  })
})
