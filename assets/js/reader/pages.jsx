// The two ways of laying pages out: the vertical strip and the paged stage.
// Every image carries its width and height, so its box is right before the
// image arrives (no layout shift). Each is a <picture>: the page's AVIF for a
// browser that shows AVIF, else its JPEG/WebP. The choice is the browser's,
// in the server's HTML too, and a file's URL names one format (the media
// store and a CDN serve files, not negotiations; the offline copy is kept
// by URL). The <picture> draws no box of its own (reader_pages.css).
import React, { useLayoutEffect } from "react";
import { originalSize, unitStyles } from "./layout.js";

export function PageImage({ page, index, src, avif, alt, priority, lazy, style, onLoad, imageRef }) {
  return (
    <picture className="reader-picture">
      {src && avif ? <source type="image/avif" srcSet={avif} /> : null}
      <img
        ref={imageRef}
        src={src}
        alt={alt}
        width={page.width}
        height={page.height}
        loading={priority || !lazy ? "eager" : "lazy"}
        decoding={priority ? "auto" : "async"}
        fetchPriority={priority ? "high" : "auto"}
        style={style}
        className="reader-page"
        data-page-index={index}
        draggable={false}
        onLoad={onLoad}
      />
    </picture>
  );
}

// Fit height is done in reader.css (a stable viewport unit, with a fallback).
function stripStyle(page, fit) {
  if (fit === "height") return undefined;
  if (fit === "original") return { width: originalSize(page).width, height: "auto" };
  return { width: "calc(100% * var(--zoom, 1))", height: "auto" };
}

// The reader's zoom (zooming.js) as the --zoom the page sizes are drawn with.
function zoomStyle(zoom) {
  return zoom > 1 ? { "--zoom": zoom } : undefined;
}

export function VerticalStrip({ pages, fit, srcOf, avifOf, altOf, zoom, priorityPage, holdAbove, imageRefs, onPriorityLoad, endCard }) {
  return (
    <div className={`reader-strip reader-fit-${fit}`} style={zoomStyle(zoom)}>
      {pages.map((page, index) => (
        <PageImage
          key={index}
          page={page}
          index={index}
          // The box keeps its size without an image: nothing moves when it comes.
          src={holdAbove && index < priorityPage ? undefined : srcOf(page)}
          avif={avifOf(page)}
          alt={altOf(index)}
          priority={index === priorityPage}
          // Only the page the visitor starts on and the one after it load at
          // once: resuming at page 40 must not download pages 0 to 39 first.
          lazy={index !== priorityPage && index !== priorityPage + 1}
          style={stripStyle(page, fit)}
          onLoad={index === priorityPage ? onPriorityLoad : undefined}
          imageRef={(element) => {
            imageRefs.current[index] = element;
          }}
        />
      ))}
      {endCard}
    </div>
  );
}

export function PagedStage({ pages, unit, fit, direction, srcOf, avifOf, altOf, zoom, priorityPage, onPriorityLoad, stageRef, onScroll, endCard }) {
  const shown = unit ? unit.map((index) => pages[index]) : [];
  const styles = unit ? unitStyles(shown, fit) : [];
  useLayoutEffect(() => {
    // A screen wider than the window is panned by the browser (touch-action
    // in reader_pages.css); a screen that fits leaves sideways swipes to the
    // reader.
    const stage = stageRef.current;
    if (!stage) return undefined;
    const mark = () => {
      stage.dataset.room = stage.scrollWidth > stage.clientWidth + 1 ? "wide" : "fits";
    };
    mark();
    window.addEventListener("resize", mark);
    return () => window.removeEventListener("resize", mark);
  }, [stageRef, unit, fit, zoom]);
  return (
    <div className={`reader-stage reader-fit-${fit}`} ref={stageRef} onScroll={onScroll} style={zoomStyle(zoom)}>
      {unit ? (
        <div className={`reader-unit reader-unit-${direction}`} data-unit-size={unit.length}>
          {unit.map((index, position) => (
            <PageImage
              key={index}
              page={pages[index]}
              index={index}
              src={srcOf(pages[index])}
              avif={avifOf(pages[index])}
              alt={altOf(index)}
              priority={index === priorityPage}
              lazy={false}
              style={styles[position]}
              onLoad={index === priorityPage ? onPriorityLoad : undefined}
            />
          ))}
        </div>
      ) : (
        endCard
      )}
    </div>
  );
}
