// The console's uploader (/admin/upload): Uppy's Dashboard, where files and
// whole folders are dropped or chosen, sending each over tus (resumable,
// chunked) to the site's /admin/tus with the operator's ID token. tus keeps
// each upload's URL under the file's fingerprint in localStorage: a dropped
// connection retries, and after a reload the same file added again continues
// where it stopped. Pinned in Python (manga_app/ui/uploader.py).
import React, { useEffect, useRef } from "react";
import Uppy from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import Tus from "@uppy/tus";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import { currentIdToken } from "./firebase/client.jsx";

const CHUNK_BYTES = 8 * 1024 * 1024;

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
    uppy.on("complete", (result) => {
      if (uploaded.current) uploaded.current(result.successful.length, result.failed.length);
    });
    return () => uppy.destroy();
  }, [endpoint, maxFileSize, note]);
  return <div ref={target} className="console-uploader" data-testid="uploader" />;
}
