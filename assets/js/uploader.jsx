// The console's uploader (/admin/upload): Uppy's Dashboard, where files and
// whole folders are dropped or chosen, sending each over tus (resumable,
// chunked) to the site's /admin/tus with the operator's ID token. tus keeps
// each upload's URL under the file's fingerprint in localStorage: a dropped
// connection retries. Golden Retriever keeps the files being sent (their
// state in localStorage, their bytes in IndexedDB up to RESTORE_FILE_BYTES a
// file): after a reload or a closed tab the page restores them and they
// continue where they stopped, nothing added again. A larger file comes back
// as a name to choose again; chosen, it continues by its fingerprint too.
// Pinned in Python (manga_app/ui/uploader.py).
import React, { useEffect, useRef } from "react";
import Uppy from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import Tus from "@uppy/tus";
import GoldenRetriever from "@uppy/golden-retriever";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import { currentIdToken } from "./firebase/client.jsx";

const CHUNK_BYTES = 8 * 1024 * 1024;
const MiB = 1024 * 1024;
// What the browser keeps to restore after a reload: each file's bytes up to
// this size, in all this much (a copy in the browser's storage until sent).
const RESTORE_FILE_BYTES = 1024 * MiB;
const RESTORE_TOTAL_BYTES = 4096 * MiB;
// As long as the server keeps an unfinished upload (uploads/tus_app.py DAYS_TO_KEEP).
const RESTORE_MS = 7 * 24 * 60 * 60 * 1000;

export function Uploader({ endpoint, maxFileSize, note, onUploaded }) {
  const target = useRef(null);
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;
  useEffect(() => {
    const uppy = new Uppy({ autoProceed: true, restrictions: { maxFileSize } });
    uppy.use(Dashboard, {
      inline: true,
      target: target.current,
      fileManagerSelectionType: "both",
      proudlyDisplayPoweredByUppy: false,
      showRemoveButtonAfterComplete: false,
      note,
      width: "100%",
      height: 320,
    });
    uppy.use(Tus, {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      removeFingerprintOnSuccess: true,
      async onBeforeRequest(request) {
        request.setHeader("Authorization", `Bearer ${await currentIdToken()}`);
      },
    });
    uppy.use(GoldenRetriever, {
      expires: RESTORE_MS,
      indexedDB: { maxFileSize: RESTORE_FILE_BYTES, maxTotalSize: RESTORE_TOTAL_BYTES },
    });
    // The operator had started these: they continue once every restored file
    // has its bytes (at once, or when the ones the browser could not keep are chosen again).
    const continueRestored = () => {
      const files = uppy.getFiles();
      if (uppy.getState().recoveredState && files.length > 0 && !files.some((file) => file.isGhost)) {
        uppy.emit("restore-confirmed");
      }
    };
    uppy.on("restored", continueRestored);
    uppy.on("files-added", continueRestored);
    uppy.on("complete", (result) => {
      if (uploaded.current) uploaded.current(result.successful.length, result.failed.length);
    });
    return () => uppy.destroy();
  }, [endpoint, maxFileSize, note]);
  return <div ref={target} className="console-uploader" data-testid="uploader" />;
}
