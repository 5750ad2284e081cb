import { useMutation } from '@tanstack/react-query'
import { contentStore } from '../config'
import { ErrorAlert } from './ErrorAlert'

interface InputFileFieldProps {
  id: string
  /** Called with the uploaded file's CID, or `undefined` when another file is being chosen. */
  onUploaded: (cid: string | undefined) => void
}

/** Picks the task's input file and uploads it to the content store, showing its CID. */
export function InputFileField({ id, onUploaded }: InputFileFieldProps) {
  const upload = useMutation({
    mutationFn: async (file: File) => contentStore.put(new Uint8Array(await file.arrayBuffer())),
    onMutate: () => onUploaded(undefined),
  })

  return (
    <>
      <input
        id={id}
        type="file"
        data-testid="submit-input-file"
        onChange={(event) => {
          const file = event.target.files?.[0]
          if (file === undefined) onUploaded(undefined)
          // Only the last file's upload reports its CID (`mutate` callbacks fire for the latest call).
          else upload.mutate(file, { onSuccess: (cid) => onUploaded(cid) })
        }}
      />
      <div className="muted small">
        {upload.isPending && 'Uploading…'}
        {upload.isSuccess && (
          <>
            Input CID <code data-testid="submit-input-cid">{upload.data}</code>
          </>
        )}
      </div>
      <ErrorAlert error={upload.error} />
    </>
  )
}
