// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A line plot in SVG, written by hand (sluice/experiment.h): axes with
 * round ticks, one polyline per series, a legend.  Pure; the same input
 * gives the same bytes (numbers with fixed decimals).
 */
#include <math.h>
#include <stdio.h>
#include <sluice/experiment.h>

#define W	720
#define H	400
#define LEFT	70
#define RIGHT	170
#define TOP	40
#define BOTTOM	50

static const char *const colours[] = {
	"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
};

/* Text with XML's five special characters escaped. */
static void text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
}

/* A round step (1, 2 or 5 times a power of ten) giving about 5 ticks. */
static double tick_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void number(FILE *f, double v)
{
	if (fabs(v - round(v)) < 1e-9)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%g", v);
}

/**
 * sluice_svg_write() - the plot, as a whole SVG document
 * @p:	title, axis labels, x step and the series
 * @f:	where to
 *
 * Return: 0, or -1 if writing failed.
 */
int sluice_svg_write(const struct sluice_svg_plot *p, FILE *f)
{
	double ymax = 0, xmax, ystep, xstep, v, x, y;
	uint32_t s, i, n = 0;
	const int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;

	for (s = 0; s < p->n_series; s++) {
		if (p->series[s].n > n)
			n = p->series[s].n;
		for (i = 0; i < p->series[s].n; i++)
			if (p->series[s].y[i] > ymax)
				ymax = p->series[s].y[i];
	}
	xmax = n * p->x_step;
	if (xmax <= 0)
		xmax = 1;
	if (ymax <= 0)
		ymax = 1;
	ystep = tick_step(ymax);
	ymax = ceil(ymax / ystep - 1e-9) * ystep;
	xstep = tick_step(xmax);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		W, H, W, H, W, H);
	fputs("<text x=\"", f);
	fprintf(f, "%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">",
		LEFT + pw / 2);
	text(f, p->title);
	fputs("</text>\n", f);
	/* the grid and the y ticks */
	for (v = 0; v <= ymax + 1e-9; v += ystep) {
		y = TOP + ph - v / ymax * ph;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			LEFT, y, LEFT + pw, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT - 6, y + 4);
		number(f, v);
		fputs("</text>\n", f);
	}
	for (v = 0; v <= xmax + 1e-9; v += xstep) {
		x = LEFT + v / xmax * pw;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n",
			x, TOP + ph, x, TOP + ph + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			x, TOP + ph + 18);
		number(f, v);
		fputs("</text>\n", f);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
		LEFT, TOP, LEFT, TOP + ph, LEFT, TOP + ph, LEFT + pw, TOP + ph);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		LEFT + pw / 2, H - 12);
	text(f, p->x_label);
	fprintf(f, "</text>\n<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">",
		TOP + ph / 2, TOP + ph / 2);
	text(f, p->y_label);
	fputs("</text>\n", f);
	for (s = 0; s < p->n_series; s++) {
		const char *c = colours[s % (sizeof(colours) / sizeof(colours[0]))];

		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
		for (i = 0; i < p->series[s].n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				LEFT + (i + 1) * p->x_step / xmax * pw,
				TOP + ph - p->series[s].y[i] / ymax * ph);
		fputs("\"/>\n", f);
		y = TOP + 10 + 20 * s;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			LEFT + pw + 15, y, LEFT + pw + 40, y, c);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">", LEFT + pw + 46, y + 4);
		text(f, p->series[s].name);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
